// Session ids as custody accepts them: checked once, before any path is built from them.
import { custodyErrors } from './errors.js';

/** A session id that is safe to put in a file name. */
export type SessionId = string & { readonly __brand: 'SessionId' };

// Agents' ids are UUIDs, `agent-<hex>`, `ses_…`, rollout stamps: letters, digits, `.`, `_`, `-`.
const idPattern = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}$/;

export function isSessionId(value: string): value is SessionId {
  return idPattern.test(value) && !value.includes('..');
}

/**
 * The id, branded, or `InvalidSessionId` for anything with `/`, `\`, `..`, NUL, control characters
 * or other bytes a path could be steered with. Example: `sessionId('0a1b2c3d-…')`.
 */
export function sessionId(value: string): SessionId {
  if (!isSessionId(value)) throw custodyErrors.invalidSessionId(value);
  return value;
}
