import { newId } from './ids.js';
import type { CreateFaultBody, Fault } from '../../api/index.js';
import { invalid } from '../domain/errors.js';

/** The faults path itself is never faulted, so that a test can always clear them. */
export const FAULTS_PATH = '/sandbox/v1/faults';

/**
 * Injected failures per organization (local-platform.md §4), kept in memory: they exist to
 * prove that clients retry safely, and mean nothing after a restart.
 */
export class FaultService {
  private readonly faults = new Map<string, Fault[]>();

  add(organizationId: string, body: CreateFaultBody): Fault {
    if (body.status === 0 && body.mode !== 'after_commit') {
      throw invalid('status 0 (a dropped connection) exists only in after_commit mode');
    }
    const fault: Fault = {
      id: newId(),
      method: body.method?.toUpperCase() ?? null,
      pathPrefix: body.pathPrefix ?? null,
      mode: body.mode,
      status: body.status,
      count: body.count,
      remaining: body.count,
      retryAfter: body.retryAfter ?? 1,
    };
    this.faults.set(organizationId, [...(this.faults.get(organizationId) ?? []), fault]);
    return fault;
  }

  clear(organizationId: string): void {
    this.faults.delete(organizationId);
  }

  /** Takes one use of the first fault matching a request, if any. */
  take(organizationId: string, method: string, path: string): Fault | undefined {
    if (path.startsWith(FAULTS_PATH)) return undefined;
    const list = this.faults.get(organizationId);
    const fault = list?.find(
      (f) =>
        f.remaining > 0 &&
        (f.method === null || f.method === method.toUpperCase()) &&
        (f.pathPrefix === null || path.startsWith(f.pathPrefix)),
    );
    if (!fault) return undefined;
    fault.remaining -= 1;
    return { ...fault };
  }
}
