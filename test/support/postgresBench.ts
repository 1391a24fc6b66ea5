import { startTestPostgres } from './postgres.js';

/** The benches' PostgreSQL: durable, as a firm runs it (fsync and synchronous commit on). */
export default function setup(): Promise<() => Promise<void>> {
  return startTestPostgres({ durable: true });
}
