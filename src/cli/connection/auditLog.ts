import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ListPage, RequestRecord } from '../../client/index.js';
import { booksPaths } from '../config/paths.js';

/** The local audit log: one JSON line per request attempt (`books log` shows it). */
export function auditLogFile(env: NodeJS.ProcessEnv): string {
  return path.join(booksPaths(env).dataDir, 'audit.log');
}

export function appendAudit(env: NodeJS.ProcessEnv, record: RequestRecord): void {
  const file = auditLogFile(env);
  mkdirSync(path.dirname(file), { recursive: true });
  appendFileSync(file, `${JSON.stringify(record)}\n`, { mode: 0o600 });
}

/** The last `limit` records, oldest first. */
export function readAudit(env: NodeJS.ProcessEnv, limit: number): ListPage<RequestRecord> {
  const file = auditLogFile(env);
  if (!existsSync(file)) return { items: [], total: 0 };
  const lines = readFileSync(file, 'utf8').trim().split('\n').filter(Boolean);
  return {
    items: lines.slice(-limit).map((line) => JSON.parse(line) as RequestRecord),
    total: lines.length,
  };
}
