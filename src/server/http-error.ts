// The server's one HTTP error class and its one error boundary: every error becomes
// `{ok:false, error:{code, message}}` with the status its kind decides, never a stack or a path.
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { AgentlogError, httpStatusOf, isAgentlogError, type ErrorKind } from '../errors.js';
import { isSearchError, searchErrorCodes } from '../search/errors.js';
import type { ErrorBody } from './api-types.js';

const kindOfStatus = (status: number): ErrorKind =>
  status === 404 ? 'not_found' : status === 409 || status === 429 ? 'conflict' : status >= 500 ? 'failed' : 'usage';

/** An error a route raises on purpose with its exact status (401, 403, 413, 429…). */
export class HttpError extends AgentlogError {
  constructor(
    readonly status: ContentfulStatusCode,
    code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(code, kindOfStatus(status), message);
    this.name = 'HttpError';
  }
}

export const badRequest = (code: string, message: string): HttpError => new HttpError(400, code, message);

/** The status an error answers with: the HttpError's own, the search route's table, else its kind's. */
export function statusOf(error: unknown): ContentfulStatusCode {
  if (error instanceof HttpError) return error.status;
  if (isSearchError(error)) return searchErrorCodes[error.code] as ContentfulStatusCode;
  return httpStatusOf(error) as ContentfulStatusCode;
}

/** Absolute paths are the server's business: a message names files by their last component only. */
export function withoutPaths(message: string): string {
  return message.replace(/(?:[A-Za-z]:)?(?:\/[^\s/'"`,:;)]+){2,}\/?/g, (p) => `…/${p.split('/').filter(Boolean).at(-1) ?? ''}`);
}

export function errorBody(code: string, message: string): ErrorBody {
  return { ok: false, error: { code, message } };
}

/**
 * The error boundary (`app.onError`): a known error keeps its code and a path-free message; an
 * unknown one is logged and answered with a generic 500.
 */
export function errorBoundary(log: (line: string) => void) {
  return (error: Error, c: Context): Response => {
    const status = statusOf(error);
    if (error instanceof HttpError) for (const [k, v] of Object.entries(error.headers)) c.header(k, v);
    if (isAgentlogError(error) && status < 500) return c.json(errorBody(error.code, withoutPaths(error.message)), status);
    log(`error ${c.req.method} ${c.req.routePath}: ${isAgentlogError(error) ? error.code : error.name}: ${withoutPaths(error.message)}`);
    if (isAgentlogError(error)) return c.json(errorBody(error.code, withoutPaths(error.message)), status);
    return c.json(errorBody('internal', 'the server failed to answer; its log (serve.log) has the details'), 500);
  };
}
