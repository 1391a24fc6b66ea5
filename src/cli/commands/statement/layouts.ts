import { argument, defineCommand, flag } from '../../command.js';
import { UsageError } from '../../exitCodes.js';

/**
 * `statement layouts`: the banks' CSV layouts saved with `--save-layout` in the profile in use —
 * the shape of the files each reads, and the flags it reads them with; `--forget NAME` drops one.
 */
export const command = defineCommand({
  summary: "The banks' CSV layouts saved with --save-layout: the shape each reads, its flags",
  arguments: {
    name: argument('the layout to forget (with --forget)', { optional: true }),
  },
  options: {
    forget: flag('--forget', 'forget the layout named: its files need their flags again'),
  },
  examples: [
    'books statement layouts',
    'books statement layouts --json',
    'books statement layouts "Sparkasse export" --forget',
  ],
  async run(ctx, input) {
    const { savedLayouts, forgetLayout, mapText } = await import('../../statements/layouts.js');
    if (input.forget || input.name !== undefined) {
      if (!input.forget || input.name === undefined)
        throw new UsageError(
          'statement layouts NAME --forget: name the layout to forget, with --forget',
        );
      if (!(await forgetLayout(ctx, input.name)))
        throw new UsageError(
          `no layout "${input.name}" is saved; books statement layouts lists those that are`,
        );
      ctx.wrote(`layout "${input.name}" forgotten`);
      return;
    }
    const { shapeText } = await import('../../../formats/bankCsv/layout.js');
    const rows = Object.entries(await savedLayouts(ctx)).map(([name, layout]) => ({
      name,
      ...layout,
    }));
    if (rows.length === 0 && !ctx.output.json)
      ctx.output.note(
        'books: no layouts saved: read a bank CSV with --map … --save-layout NAME to keep one',
      );
    await ctx.output.table(
      [
        { header: 'Layout', value: (r) => r.name },
        { header: 'Shape', value: (r) => shapeText(r.shape as Parameters<typeof shapeText>[0]) },
        { header: 'Map', value: (r) => mapText(r.map) },
        { header: 'Date format', value: (r) => r.dateFormat ?? '' },
        { header: 'Decimal', value: (r) => (r.decimalComma ? 'comma' : '') },
        { header: 'Encoding', value: (r) => r.encoding ?? '' },
        { header: 'Saved', value: (r) => r.savedAt },
      ],
      rows,
    );
  },
});
