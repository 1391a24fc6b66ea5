import type { JournalEntry, List, ListJournalEntriesQuery } from '../api/index.js';
import type { ListPage } from './client.js';

type FetchPage = (query: ListJournalEntriesQuery) => Promise<List<JournalEntry>>;

const PAGE_SIZE = 100;
/** How many entries already read each page asks for again, to find its place. */
const OVERLAP = 20;

/**
 * Every journal entry of a range, page by page, exact while others write.
 *
 * The API pages by `offset` in the order most recent first. Read that way while another process
 * writes, an entry dated inside what was already read pushes every later one down a place (the
 * next page repeats one), and an entry deleted there pulls them up (the next page skips one that
 * is still there). So the walk never counts from the top: each page asks again with `endDate`
 * set to the day the last one ended on, its `offset` counting only that day's entries read, less
 * an overlap of OVERLAP. An entry already read must come back in that overlap (else entries read
 * were deleted, more than the overlap: the day is read again from its first entry); entries
 * already given are left out. Entries written meanwhile into days not yet reached are listed;
 * into days already passed, not. Each entry is given once (one moved by a PATCH to a day not yet
 * reached is met again there, at its new date), and no entry there all along is missed. The pages
 * stay cheap on any platform: an offset never counts more than one day's entries.
 */
export async function* journalEntryPages(
  fetchPage: FetchPage,
  query: Omit<ListJournalEntriesQuery, 'limit' | 'offset'>,
  max = Number.POSITIVE_INFINITY,
): AsyncGenerator<ListPage<JournalEntry>> {
  let total = 0;
  let counted = false;
  let given = 0;
  /** The day the walk has reached, how many of its entries it has read, and their ids. */
  let day: string | undefined;
  let position = 0;
  let seenOnDay = new Set<string>();

  interface Asked {
    offset: number;
    limit: number;
    answer: Promise<List<JournalEntry>>;
  }
  const ask = (): Asked => {
    const offset = Math.max(0, position - OVERLAP);
    const limit = Math.min(PAGE_SIZE, max - given + (position - offset));
    const answer = fetchPage({
      ...query,
      ...(day === undefined ? {} : { endDate: day }),
      limit,
      offset,
    });
    return { offset, limit, answer };
  };

  let pending: Asked | undefined = ask();
  while (pending) {
    const { offset, limit, answer }: Asked = pending;
    const page: List<JournalEntry> = await answer;
    if (!counted) [total, counted] = [page.pagination.total, true];
    if (offset > 0 && !page.data.some((e) => e.dateOnly === day && seenOnDay.has(e.id))) {
      // More entries read were deleted than the overlap holds: read the day again.
      position = 0;
      pending = ask();
      continue;
    }
    const fresh: JournalEntry[] = [];
    let onDay = offset;
    for (const entry of page.data) {
      if (entry.dateOnly !== day) {
        day = entry.dateOnly;
        seenOnDay = new Set();
        onDay = 0;
      }
      onDay += 1;
      if (seenOnDay.has(entry.id) || given >= max) continue;
      seenOnDay.add(entry.id);
      fresh.push(entry);
      given += 1;
    }
    position = onDay;
    pending = page.data.length === limit && given < max ? ask() : undefined;
    // A page asked for ahead and not wanted after all (the caller stopped) is not left failing.
    pending?.answer.catch(() => undefined);
    if (fresh.length > 0 || pending === undefined) {
      yield { items: fresh, total: Math.max(total, given) };
    }
  }
}
