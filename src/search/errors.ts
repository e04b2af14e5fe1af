// The search layer's one error root: a `code` a caller branches on, the HTTP status the route answers
// with, and a message that says what to do.

import { AgentlogError, type ErrorKind } from '../errors.js';

export const searchErrorCodes = {
  QueryRequired: 400,
  QueryTooLong: 400,
  TooManyTerms: 400,
  InvalidCursor: 400,
  InvalidParameter: 400,
  CursorExpired: 410,
  IndexBusy: 409,
  IndexNewer: 409,
  StateCorrupt: 500,
} as const;

const kindOf: Record<SearchErrorCode, ErrorKind> = {
  QueryRequired: 'usage',
  QueryTooLong: 'usage',
  TooManyTerms: 'usage',
  InvalidCursor: 'usage',
  InvalidParameter: 'usage',
  CursorExpired: 'usage',
  IndexBusy: 'conflict',
  IndexNewer: 'failed',
  StateCorrupt: 'failed',
};

export type SearchErrorCode = keyof typeof searchErrorCodes;

export class SearchError extends AgentlogError<SearchErrorCode> {
  readonly status: number;

  constructor(code: SearchErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, kindOf[code], message, options);
    this.name = 'SearchError';
    this.status = searchErrorCodes[code];
  }
}

export function isSearchError(error: unknown): error is SearchError {
  return error instanceof SearchError;
}
