/**
 * Numbered schema migrations, applied in order at start-up, each backend its own list. Never
 * edit one that has shipped: add the next number.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/**
 * A database migrated by a newer `books` than this one: refused before anything is read or
 * written, since this binary does not know what the newer schema means.
 */
export class SchemaTooNew extends Error {
  override name = 'SchemaTooNew';
  constructor(
    readonly databaseVersion: number,
    readonly knownVersion: number,
  ) {
    super(
      `its schema is version ${databaseVersion}, newer than this books knows (${knownVersion}): upgrade books to use it`,
    );
  }
}

/** Throws SchemaTooNew when the database holds a migration this binary lacks. */
export function checkSchemaVersion(appliedVersion: number, migrations: readonly Migration[]): void {
  const known = Math.max(0, ...migrations.map((m) => m.version));
  if (appliedVersion > known) throw new SchemaTooNew(appliedVersion, known);
}

/**
 * The database cannot be used, for a reason its owner can fix: said in one line with where it
 * is (the CLI prints it and exits 1; nothing in it was changed).
 */
export class DatabaseUnavailable extends Error {
  override name = 'DatabaseUnavailable';
  constructor(
    readonly location: string,
    reason: string,
    cause?: unknown,
  ) {
    super(`cannot use the database ${location}: ${reason}`, { cause });
  }
}

/**
 * The database said it is damaged (SQLite's "database disk image is malformed", PostgreSQL's
 * data or index corruption). From then on the process that met it writes nothing more to it:
 * its reads that still work go on, its writes are refused with this, and `books db check` says
 * what is wrong before a backup is restored.
 */
export class DatabaseDamaged extends Error {
  override name = 'DatabaseDamaged';
  readonly code = 'BOOKS_DATABASE_DAMAGED';
  constructor(
    readonly location: string,
    readonly detail: string,
    /** The location as `books db check --db` takes it (a file, or the URL without its password). */
    readonly checkTarget: string,
  ) {
    super(
      `the platform's database is damaged (${detail}): nothing was written, and nothing more will be until it is mended; run \`books db check${checkTarget === '' ? '' : ` --db ${checkTarget}`}\` to see what is wrong, then restore a backup (\`books db restore\`)`,
    );
  }
}
