import { argument, defineCommand } from '../../command.js';
import type { BooksConfig } from '../../config.js';
import { COLOR_VALUES, OUTPUT_VALUES, settingKey, settingToWrite } from '../../settings.js';

export const command = defineCommand({
  summary: 'Change a setting: output, color, pager or profile (workspace and entity: books use)',
  arguments: {
    key: argument('output, color, pager or profile', {
      choices: ['output', 'color', 'pager', 'profile'],
    }),
    value: argument('its new value'),
  },
  examples: [
    `books config set output csv      # ${OUTPUT_VALUES.join(', ')}`,
    `books config set color never     # ${COLOR_VALUES.join(', ')}`,
    "books config set pager 'less -SR'   # or never",
    'books config set profile staging',
  ],
  async run(ctx, { key: given, value }) {
    const key = settingKey(given);
    const store = await ctx.configStore();
    const write = settingToWrite(key, value, store.store as BooksConfig);
    store.set(write.configKey, write.value);
    ctx.wrote(`${key} = ${write.value} (saved in ${store.path})`);
  },
});
