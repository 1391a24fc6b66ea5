import { argument, defineCommand } from '../../command.js';
import { changeProfileInUse } from '../../config/profileInUse.js';
import type { BooksConfig } from '../../config/profiles.js';
import { COLOR_VALUES, OUTPUT_VALUES, settingKey, settingToWrite } from '../../config/settings.js';

export const command = defineCommand({
  summary:
    "Change a setting: output, color, pager, profile, date-format, or the close review's (workspace and entity: books use)",
  arguments: {
    key: argument(
      'output, color, pager, profile, date-format, suspense-accounts, flux-percent or flux-amount',
      {
        choices: [
          'output',
          'color',
          'pager',
          'profile',
          'date-format',
          'suspense-accounts',
          'flux-percent',
          'flux-amount',
        ],
      },
    ),
    value: argument('its new value'),
  },
  examples: [
    `books config set output csv      # ${OUTPUT_VALUES.join(', ')}`,
    `books config set color never     # ${COLOR_VALUES.join(', ')}`,
    "books config set pager 'less -SR'   # or never",
    'books config set profile staging',
    'books config set date-format DD/MM/YYYY   # days a file does not order itself (this profile)',
    'books config set suspense-accounts "Clearing,Transfers in transit"   # besides the usual ones',
    'books config set flux-percent 30     # the close review: a month 30% off its average…',
    'books config set flux-amount 500     # …and 500.00 off it',
  ],
  async run(ctx, { key: given, value }) {
    const key = settingKey(given);
    const store = await ctx.configStore();
    const write = settingToWrite(key, value, store.store as BooksConfig);
    if (write.configKey === 'dateFormat') {
      // The client's: kept in the profile in use, as its statement links and layouts are.
      const profile = await changeProfileInUse(ctx, (p) => ({ ...p, dateFormat: write.value }));
      ctx.wrote(`${key} = ${write.value} (profile "${profile}", saved in ${store.path})`);
      return;
    }
    store.set(write.configKey, write.value);
    ctx.wrote(`${key} = ${write.value} (saved in ${store.path})`);
  },
});
