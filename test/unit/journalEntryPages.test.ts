import { describe, expect, it } from 'vitest';
import type { JournalEntry, ListJournalEntriesQuery } from '../../src/api/index.js';
import { collectPages } from '../../src/client/client.js';
import { journalEntryPages } from '../../src/client/journalEntryPages.js';

/**
 * The walk over `je list` pages against a list that changes between pages as another process
 * would change it: what the platform answers is computed here from an array, as the API says
 * (most recent first, `endDate` inclusive, `offset` and `limit`).
 */
function books(days: number, perDay: number) {
  let seq = 0;
  const entries: { id: string; dateOnly: string; seq: number }[] = [];
  const add = (day: number) => {
    seq += 1;
    const entry = { id: `e${seq}`, dateOnly: `2025-03-${String(day).padStart(2, '0')}`, seq };
    entries.push(entry);
    return entry;
  };
  for (let day = 1; day <= days; day += 1) for (let i = 0; i < perDay; i += 1) add(day);
  const fetchPage = (query: ListJournalEntriesQuery) => {
    const matches = entries
      .filter((e) => query.endDate === undefined || e.dateOnly <= query.endDate)
      .sort((a, b) =>
        a.dateOnly === b.dateOnly ? b.seq - a.seq : a.dateOnly < b.dateOnly ? 1 : -1,
      );
    const offset = query.offset ?? 0;
    const limit = query.limit ?? 100;
    return {
      data: matches.slice(offset, offset + limit) as unknown as JournalEntry[],
      pagination: { limit, offset, total: matches.length },
    };
  };
  const deleted = new Set<string>();
  const remove = (id: string) => {
    deleted.add(id);
    entries.splice(
      entries.findIndex((e) => e.id === id),
      1,
    );
  };
  const before = entries.map((e) => e.id);
  /** Each entry listed once, and every one there from the start and never deleted, listed. */
  const expectEachOnce = (items: { id: string }[]) => {
    const ids = items.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    const listed = new Set(ids);
    expect(before.filter((id) => !deleted.has(id) && !listed.has(id))).toEqual([]);
  };
  return { entries, add, remove, fetchPage, expectEachOnce };
}

describe('journalEntryPages: every entry once while the list changes', () => {
  it('reads a list that does not change exactly as offsets would, the total from the first page', async () => {
    const { entries, fetchPage } = books(10, 37);
    const pages = [];
    for await (const page of journalEntryPages(async (q) => fetchPage(q), {})) pages.push(page);
    const ids = pages.flatMap((p) => p.items.map((e) => e.id));
    expect(ids).toEqual(
      fetchPage({ limit: 100, offset: 0 })
        .data.map((e) => e.id)
        .concat(
          fetchPage({ limit: 100, offset: 100 }).data.map((e) => e.id),
          fetchPage({ limit: 100, offset: 200 }).data.map((e) => e.id),
          fetchPage({ limit: 100, offset: 300 }).data.map((e) => e.id),
        ),
    );
    expect(ids).toHaveLength(entries.length);
    expect(pages.every((p) => p.total === 370)).toBe(true);
  });

  it('gives each entry once when entries are added to days already read, and loses none when entries read are deleted', async () => {
    const { add, remove, fetchPage, expectEachOnce } = books(8, 150);
    let asked = 0;
    const changing = async (query: ListJournalEntriesQuery) => {
      const answer = fetchPage(query);
      asked += 1;
      // After each page: three new entries on the latest day, one on the day being read, and
      // an entry already read deleted.
      for (let i = 0; i < 3; i += 1) add(8);
      add(8 - (asked % 8));
      const victim = answer.data[answer.data.length - 2];
      if (victim) remove(victim.id);
      return answer;
    };
    expectEachOnce((await collectPages(journalEntryPages(changing, {}))).items);
  });

  it('reads a day again when more entries already read were deleted than the overlap holds', async () => {
    const { remove, fetchPage, expectEachOnce } = books(4, 250);
    let asked = 0;
    const changing = async (query: ListJournalEntriesQuery) => {
      const answer = fetchPage(query);
      asked += 1;
      if (asked === 2) {
        for (const victim of answer.data.slice(0, 60)) remove(victim.id);
      }
      return answer;
    };
    expectEachOnce((await collectPages(journalEntryPages(changing, {}))).items);
  });

  it('stops at max, with the total it was told', async () => {
    const { fetchPage } = books(3, 100);
    const { items, total } = await collectPages(
      journalEntryPages(async (q) => fetchPage(q), {}, 150),
    );
    expect(items).toHaveLength(150);
    expect(total).toBe(300);
  });
});
