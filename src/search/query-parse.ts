// Reading a search request: the query split into folded terms, and the page size and window checked
// against the limits of seed 000 "The query route" (256 bytes, 8 terms, 1–50 sessions a page).
import { SearchError } from './errors.js';
import { fold } from './fold.js';

export const queryLimits = { maxBytes: 256, maxTerms: 8, defaultLimit: 20, maxLimit: 50, hitsPerSession: 3 } as const;

/**
 * Splits and folds the query: at most 256 bytes and 8 terms, at least one term after folding.
 * Example: parseQuery('Café  302') → ['cafe\u0301', '302'].
 */
export function parseQuery(q: string): string[] {
  if (Buffer.byteLength(q, 'utf8') > queryLimits.maxBytes) {
    throw new SearchError('QueryTooLong', `the query is longer than ${queryLimits.maxBytes} bytes; search for fewer or shorter terms`);
  }
  // Control characters separate terms like spaces do (NUL also separates records in a shard).
  const terms = q
    .replace(/[\u0000-\u001f\u007f]/g, ' ')
    .split(/\s+/)
    .map((t) => fold(t).text)
    .filter((t) => t.trim() !== '');
  if (terms.length === 0) throw new SearchError('QueryRequired', 'give at least one search term');
  if (terms.length > queryLimits.maxTerms) {
    throw new SearchError('TooManyTerms', `the query has ${terms.length} terms; at most ${queryLimits.maxTerms} are allowed`);
  }
  return [...new Set(terms)];
}

/** The page size asked for (default 20); `InvalidParameter` outside 1–50. */
export function pageLimit(limit: number | undefined): number {
  const n = limit ?? queryLimits.defaultLimit;
  if (!Number.isInteger(n) || n < 1 || n > queryLimits.maxLimit) {
    throw new SearchError('InvalidParameter', `limit must be a whole number from 1 to ${queryLimits.maxLimit}`);
  }
  return n;
}

/** The window asked for, if any; `InvalidParameter` unless a whole number of days (0 = all history). */
export function windowOf(days: number | undefined): number | undefined {
  if (days !== undefined && (!Number.isInteger(days) || days < 0)) {
    throw new SearchError('InvalidParameter', 'window_days must be a whole number of days (0 = all history)');
  }
  return days;
}
