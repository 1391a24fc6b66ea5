import type { StatementReadOptions } from '../../formats/statement.js';
import type { DateFormat } from '../../formats/ledgerCsv.js';
import { changeProfileInUse, profileInUse } from '../config/profileInUse.js';
import { readConfig, type StatementLayout } from '../config/profiles.js';
import type { CommandContext } from '../context.js';
import { UsageError } from '../exitCodes.js';

/*
 * Banks' CSV layouts remembered in the profile in use (`local` for the embedded platform;
 * `default` for a base URL given without one): `--save-layout NAME` keeps a file's `--map`,
 * date format, decimal mark and encoding with the shape of the file, and the next file of that
 * shape is read with them without flags, said on stderr.
 */

/** The layouts saved in the profile in use, by name. */
export async function savedLayouts(ctx: CommandContext): Promise<Record<string, StatementLayout>> {
  return readConfig(ctx.io.env).profiles[await profileInUse(ctx)]?.statementLayouts ?? {};
}

/** The `--map` of a layout as a person types it. */
export const mapText = (map: Readonly<Record<string, string>>) =>
  Object.entries(map)
    .map(([field, column]) => `${field}=${column}`)
    .join(',');

/**
 * The read options of a file: as given where `--map` is; else, for a bank's CSV of a saved
 * layout's shape, the layout's (what the flags give wins), said.
 */
export async function withSavedLayout(
  ctx: CommandContext,
  file: string,
  options: StatementReadOptions,
): Promise<StatementReadOptions> {
  if (options.map !== undefined) return options;
  const layouts = Object.entries(await savedLayouts(ctx));
  if (layouts.length === 0) return options;
  const [{ statementFormatOf }, { shapeFits }] = await Promise.all([
    import('../../formats/statements.js'),
    import('../../formats/bankCsv/layout.js'),
  ]);
  let head: string;
  let name: string;
  try {
    ({ head, name } = statementFormatOf(file));
  } catch {
    return options; // the reading says why
  }
  if (name !== 'bank-csv') return options;
  const found = layouts.find(([, layout]) =>
    shapeFits(head, layout.shape as Parameters<typeof shapeFits>[1]),
  );
  if (!found) return options;
  const [layoutName, layout] = found;
  ctx.output.note(
    `books: ${file}: read with the saved layout "${layoutName}" (${flagsText(layout)})`,
  );
  return {
    ...(Object.keys(layout.map).length > 0 && { map: layout.map }),
    ...(layout.dateFormat && { dateFormat: layout.dateFormat as DateFormat }),
    ...(layout.decimalComma && { decimalComma: true }),
    ...(layout.encoding && { encoding: layout.encoding }),
    ...options,
  };
}

/** The profile's layouts changed and written back; the profile's name. */
const writeLayouts = (
  ctx: CommandContext,
  change: (layouts: Record<string, StatementLayout>) => Record<string, StatementLayout>,
) =>
  changeProfileInUse(ctx, (profile) => ({
    ...profile,
    statementLayouts: change(profile.statementLayouts ?? {}),
  }));

/** A saved layout forgotten; false where there was none of the name. */
export async function forgetLayout(ctx: CommandContext, name: string): Promise<boolean> {
  if (!(name in (await savedLayouts(ctx)))) return false;
  await writeLayouts(ctx, ({ [name]: _forgotten, ...kept }) => kept);
  return true;
}

/** `--save-layout NAME`: the file's `--map` and flags kept with its shape, said. */
export async function saveLayout(
  ctx: CommandContext,
  name: string,
  file: string,
  options: StatementReadOptions,
): Promise<void> {
  const [{ statementFormatOf }, { csvShape, shapeText }] = await Promise.all([
    import('../../formats/statements.js'),
    import('../../formats/bankCsv/layout.js'),
  ]);
  const { head } = statementFormatOf(file);
  // What was given is kept: a --map, or only the date format, decimal mark or encoding.
  const map = (options.map ?? {}) as Record<string, string>;
  const shape = csvShape(head, map);
  if (!shape)
    throw new UsageError(
      `--save-layout ${name}: ${file}'s first lines hold no row with every column --map names`,
    );
  if (
    Object.keys(map).length === 0 &&
    !options.dateFormat &&
    !options.decimalComma &&
    !options.encoding
  )
    throw new UsageError(
      `--save-layout ${name}: nothing to keep: give what the bank's CSVs need (--map, --date-format, --decimal-comma or --encoding)`,
    );
  const layout: StatementLayout = {
    shape,
    map,
    ...(options.dateFormat && { dateFormat: options.dateFormat }),
    ...(options.decimalComma && { decimalComma: true }),
    ...(options.encoding && { encoding: options.encoding }),
    savedAt: ctx.clock.now().toISOString(),
  };
  const profile = await writeLayouts(ctx, (layouts) => ({ ...layouts, [name]: layout }));
  ctx.output.note(
    `books: layout "${name}" saved (profile "${profile}"): the bank's CSVs of its shape (${shapeText(shape)}) are read with ${flagsText(layout)} from now on`,
  );
}

/** A layout's flags as a person types them: `--map date=Booked,amount=Sum --date-format DD/MM/YYYY`. */
function flagsText(layout: StatementLayout): string {
  return [
    Object.keys(layout.map).length > 0 && `--map ${mapText(layout.map)}`,
    layout.dateFormat && `--date-format ${layout.dateFormat}`,
    layout.decimalComma && '--decimal-comma',
    layout.encoding && `--encoding ${layout.encoding}`,
  ]
    .filter(Boolean)
    .join(' ');
}
