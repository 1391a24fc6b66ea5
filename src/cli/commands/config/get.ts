import { argument, defineCommand } from '../../command.js';
import { readConfig } from '../../config/profiles.js';
import { ExitCode, UsageError, UserError } from '../../exitCodes.js';
import { effectiveSettings, SETTING_KEYS, settingKey } from '../../config/settings.js';

export const command = defineCommand({
  summary: 'Print the value of one setting (unset: says so, exit 1)',
  arguments: {
    key: argument(`the setting: ${SETTING_KEYS.join(', ')}`, { choices: SETTING_KEYS }),
  },
  examples: ['books config get workspace', 'books config get base-url'],
  async run(ctx, { key: given }) {
    const key = settingKey(given);
    if (key === 'token') {
      throw new UsageError(
        'books never prints a token; books config list says whether one is set and where it comes from',
      );
    }
    const setting = effectiveSettings(
      {
        ...ctx.options,
        noColor: ctx.options.color === false,
        noPager: ctx.options.pager === false,
      },
      ctx.io.env,
      readConfig(ctx.io.env),
    ).find((s) => s.key === key)!;
    if (setting.value === undefined) {
      throw new UserError(
        `${key} is not set${setting.unset ? `: ${setting.unset}` : ''}`,
        ExitCode.Refused,
      );
    }
    ctx.output.write(`${setting.value}\n`);
  },
});
