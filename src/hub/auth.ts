// Who is asking: a bearer token (`Authorization: Bearer alh_…`) or the web app's session cookie,
// looked up by its SHA-256; a missing, unknown or revoked token is the same 401. State-changing
// requests from another site are refused, so the cookie cannot be ridden by a foreign page.
import type { Context, MiddlewareHandler } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { HttpError } from '../server/http-error.js';
import type { HubStore, Principal } from './store.js';
import { hashToken, isTokenShaped } from './tokens.js';

export const hubCookie = 'agentlog_hub';

export type HubEnv = { Variables: { who: Principal } };

const challenge = { 'WWW-Authenticate': 'Bearer realm="agentlog-hub"' };

export function unauthorized(): HttpError {
  return new HttpError(
    401,
    'unauthorized',
    'sign in: send Authorization: Bearer <token> (from `agentlog hub user add`) or sign in on the web app',
    challenge,
  );
}

/** The principal a presented token names, or null. */
export async function principalOf(store: HubStore, token: string | undefined): Promise<Principal | null> {
  if (token === undefined || !isTokenShaped(token)) return null;
  return store.authenticate(hashToken(token));
}

function presented(c: Context): string | undefined {
  const auth = c.req.header('authorization');
  if (auth !== undefined) return /^Bearer\s+(\S+)\s*$/i.exec(auth)?.[1] ?? '';
  return getCookie(c, hubCookie);
}

/** Sets `who` for the routes after it; 401 otherwise. */
export function requirePrincipal(store: HubStore): MiddlewareHandler<HubEnv> {
  return async (c, next) => {
    const who = await principalOf(store, presented(c));
    if (who === null) throw unauthorized();
    c.set('who', who);
    await next();
  };
}

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

/** A state-changing request whose Origin is not this hub's own (or that says cross-site) is refused. */
export function sameOriginWrites(): MiddlewareHandler {
  return async (c, next) => {
    if (!safeMethods.has(c.req.method)) {
      const origin = c.req.header('origin');
      const host = c.req.header('host')?.toLowerCase();
      let originHost: string | null = null;
      if (origin !== undefined)
        try {
          originHost = new URL(origin).host.toLowerCase();
        } catch {
          originHost = null;
        }
      if ((origin !== undefined && (originHost === null || originHost !== host)) || c.req.header('sec-fetch-site') === 'cross-site')
        throw new HttpError(403, 'forbidden_origin', 'requests from another site may not change anything');
    }
    await next();
  };
}

/** Over TLS (or behind a proxy that says so, when trusted) the cookie is `Secure`. */
function overTls(c: Context, trustProxy: boolean): boolean {
  if (new URL(c.req.url).protocol === 'https:') return true;
  return trustProxy && c.req.header('x-forwarded-proto')?.split(',')[0]?.trim() === 'https';
}

export function setSessionCookie(c: Context, token: string, trustProxy: boolean): void {
  setCookie(c, hubCookie, token, { httpOnly: true, sameSite: 'Strict', path: '/', secure: overTls(c, trustProxy), maxAge: 30 * 86_400 });
}

export function clearSessionCookie(c: Context, trustProxy: boolean): void {
  deleteCookie(c, hubCookie, { path: '/', httpOnly: true, sameSite: 'Strict', secure: overTls(c, trustProxy) });
}
