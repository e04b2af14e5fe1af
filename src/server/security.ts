// The API's guard (issue 11 "Security"): security headers on every answer, the Host check against
// DNS rebinding, the Origin check on state-changing requests, the login link that trades the token
// for an HttpOnly cookie, and the token (bearer or cookie) on every /api request.
import type { MiddlewareHandler } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { HttpError } from './http-error.js';
import { tokenMatches } from './token.js';

export const cookieName = 'agentlog_session';

/** The dashboard loads only its own files: no inline script, no framing, no third parties. */
export const contentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'self'",
].join('; ');

export function securityHeaders(): MiddlewareHandler {
  // Set before the route answers, so they go out with its response: a header added to a finished
  // response makes the Node adapter rebuild it as a web Response and stream its body.
  return async (c, next) => {
    c.header('Content-Security-Policy', contentSecurityPolicy);
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('Referrer-Policy', 'no-referrer');
    c.header('X-Frame-Options', 'DENY');
    c.header('Cross-Origin-Resource-Policy', 'same-origin');
    await next();
  };
}

/** The Host values the server answers to: the bound name and address with the port. */
export function allowedHosts(host: string, port: number): Set<string> {
  const names = new Set([host]);
  if (host === '127.0.0.1' || host === 'localhost' || host === '::1') for (const n of ['127.0.0.1', 'localhost', '[::1]']) names.add(n);
  if (host.includes(':') && !host.startsWith('[')) names.add(`[${host}]`);
  return new Set([...names].map((n) => `${n}:${port}`.toLowerCase()));
}

/** A page on another site that resolves its own name to 127.0.0.1 sends its own Host: refuse it. */
export function hostCheck(allowed: ReadonlySet<string>): MiddlewareHandler {
  return async (c, next) => {
    const host = c.req.header('host')?.toLowerCase();
    if (host === undefined || !allowed.has(host)) throw new HttpError(403, 'forbidden_host', 'this server answers only to its own address');
    await next();
  };
}

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

/** A state-changing request from another origin (a form or fetch on a foreign page) is refused. */
export function originCheck(allowed: ReadonlySet<string>): MiddlewareHandler {
  return async (c, next) => {
    if (!safeMethods.has(c.req.method)) {
      const origin = c.req.header('origin');
      if (origin !== undefined) {
        let host: string | null = null;
        try {
          const u = new URL(origin);
          host = u.protocol === 'http:' ? u.host.toLowerCase() : null;
        } catch {
          host = null;
        }
        if (host === null || !allowed.has(host))
          throw new HttpError(403, 'forbidden_origin', 'requests from another site may not change anything');
      }
      if (c.req.header('sec-fetch-site') === 'cross-site')
        throw new HttpError(403, 'forbidden_origin', 'requests from another site may not change anything');
    }
    await next();
  };
}

/** `/?token=…`: a valid token becomes the session cookie, then a redirect drops it from the URL. */
export function loginLink(token: string): MiddlewareHandler {
  return async (c, next) => {
    const given = c.req.query('token');
    if (given === undefined) return next();
    if (!tokenMatches(token, given))
      throw new HttpError(401, 'unauthorized', 'the login link is not valid: use the one `agentlog serve` printed');
    setCookie(c, cookieName, token, { httpOnly: true, sameSite: 'Strict', path: '/' });
    return c.redirect('/', 303);
  };
}

/** Every /api request carries the token: `Authorization: Bearer <token>` or the login cookie. */
export function requireToken(token: string): MiddlewareHandler {
  return async (c, next) => {
    const auth = c.req.header('authorization');
    const bearer = auth?.startsWith('Bearer ') === true ? auth.slice(7).trim() : undefined;
    if (!tokenMatches(token, bearer) && !tokenMatches(token, getCookie(c, cookieName)))
      throw new HttpError(401, 'unauthorized', 'open the login link `agentlog serve` printed, or send Authorization: Bearer <token>');
    await next();
  };
}
