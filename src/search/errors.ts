// The search layer's one error root: a `code` a caller branches on, the HTTP status the route answers
// with, and a message that says what to do.

export const searchErrorCodes = {
  QueryRequired: 400,
  QueryTooLong: 400,
  TooManyTerms: 400,
  InvalidCursor: 400,
  InvalidParameter: 400,
  CursorExpired: 410,
  IndexBusy: 409,
  IndexNewer: 409,
} as const;

export type SearchErrorCode = keyof typeof searchErrorCodes;

export class SearchError extends Error {
  readonly status: number;

  constructor(
    readonly code: SearchErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'SearchError';
    this.status = searchErrorCodes[code];
  }
}

export function isSearchError(error: unknown): error is SearchError {
  return error instanceof SearchError;
}
