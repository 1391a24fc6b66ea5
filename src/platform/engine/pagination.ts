import type { List, ListQuery } from '../../api/index.js';
import { MAX_PAGE_SIZE } from '../../api/index.js';

export interface Page {
  limit: number;
  offset: number;
}

export function pageOf(query: ListQuery): Page {
  return { limit: query.limit ?? MAX_PAGE_SIZE, offset: query.offset ?? 0 };
}

export function listOf<T>(page: Page, result: { rows: T[]; total: number }): List<T> {
  return { data: result.rows, pagination: { ...page, total: result.total } };
}

/** Pages a list already in memory (for lists whose order is computed, like class trees). */
export function sliceList<T>(page: Page, all: T[]): List<T> {
  return listOf(page, {
    rows: all.slice(page.offset, page.offset + page.limit),
    total: all.length,
  });
}
