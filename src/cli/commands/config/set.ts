import { argument, defineCommand } from '../../command.js';
import type { BooksConfig } from '../../config/profiles.js';
import { COLOR_VALUES, OUTPUT_VALUES, settingKey, settingToWrite } from '../../config/settings.js';

export const command = defineCommand({
  summary:
    "Change a setting: output, color, pager, profile, or the close review's (workspace and entity: books use)",
  arguments: {
    key: argument('output, color, pager, profile, suspense-accounts, flux-percent or flux-amount', {
      choices: [
        'output',
        'color',
        'pager',
        'profile',
        'suspense-accounts',
        'flux-percent',
        'flux-amount',
      ],
    }),
    value: argument('its new value'),
  },
  examples: [
    `books config set output csv      # ${OUTPUT_VALUES.join(', ')}`,
    `books config set color never     # ${COLOR_VALUES.join(', ')}`,
    "books config set pager 'less -SR'   # or never",
    'books config set profile staging',
    'books config set suspense-accounts "Clearing,Transfers in transit"   # besides the usual ones',
    'books config set flux-percent 30     # the close review: a month 30% off its average…',
    'books config set flux-amount 500     # …and 500.00 off it',
  ],
  async run(ctx, { key: given, value }) {
    const key = settingKey(given);
    const store = await ctx.configStore();
    const write = settingToWrite(key, value, store.store as BooksConfig);
    store.set(write.configKey, write.value);
    ctx.wrote(`${key} = ${write.value} (saved in ${store.path})`);
  },
});
