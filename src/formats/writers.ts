import type { AuditFileWriter, AuditFormat } from './audit/writer.js';
import { datevWriter } from './datev/writer.js';
import { fecWriter } from './fec/writer.js';
import { saftWriter } from './saft/writer.js';
import { sieWriter } from './sie/writer.js';
import { xafWriter } from './xaf/writer.js';

/**
 * Every audit file books writes, by the name `books export --format` takes: each format's
 * writer lives in its folder beside its reader and the tables both use. A new one is its
 * `writer.ts` and one line here (and its name in `AUDIT_FORMATS`, which `--help` reads).
 */
export const AUDIT_WRITERS: Record<AuditFormat, AuditFileWriter> = {
  fec: fecWriter,
  saft: saftWriter,
  xaf: xafWriter,
  sie: sieWriter,
  datev: datevWriter,
};
