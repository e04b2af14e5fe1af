// Hub tokens: 32 random bytes behind a recognisable prefix, shown once, stored only as SHA-256.
import { randomBytes } from 'node:crypto';
import { sha256Hex } from '../fs/hash.js';

export const tokenPrefix = 'alh_';
const tokenShape = /^alh_[A-Za-z0-9_-]{43}$/;

/** A new token (`alh_` + 43 base64url characters). */
export function newToken(): string {
  return `${tokenPrefix}${randomBytes(32).toString('base64url')}`;
}

/** The hex SHA-256 the store keeps instead of the token. */
export function hashToken(token: string): string {
  return sha256Hex(token);
}

/** Whether a presented value could be a token at all (anything else is refused without a lookup). */
export function isTokenShaped(value: string): boolean {
  return tokenShape.test(value);
}
