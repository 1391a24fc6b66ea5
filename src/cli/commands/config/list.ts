import { defineCommand } from '../../command.js';
import { readConfig } from '../../config/profiles.js';
import { effectiveSettings, type Setting } from '../../config/settings.js';

/** Where a setting's value came from, as `config list` says it. */
export function sourceOf(setting: Setting): string {
  switch (setting.source) {
    case 'flag':
      return `flag ${setting.from}`;
    case 'environment':
      return `environment ${setting.from}`;
    case 'profile':
      return `profile "${setting.from}"`;
    case 'config':
      return 'config file';
    case 'default':
      return 'default';
  }
}

export const command = defineCommand({
  summary: 'List every setting, its value and where it came from (tokens never shown)',
  examples: ['books config list', 'books config list --json'],
  async run(ctx) {
    const settings = effectiveSettings(
      {
        ...ctx.options,
        noColor: ctx.options.color === false,
        noPager: ctx.options.pager === false,
      },
      ctx.io.env,
      readConfig(ctx.io.env),
    );
    await ctx.output.table(
      [
        { header: 'Setting', value: (s) => s.key },
        {
          header: 'Value',
          value: (s) => s.value ?? `(not set${s.unset ? `: ${s.unset}` : ''})`,
        },
        { header: 'Source', value: (s) => (s.value === undefined ? '' : sourceOf(s)) },
      ],
      settings,
      settings.map((s) => ({
        key: s.key,
        value: s.value ?? null,
        source: s.value === undefined ? null : sourceOf(s),
      })),
    );
  },
});
