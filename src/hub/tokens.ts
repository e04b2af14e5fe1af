// Hub tokens: 32 random bytes behind a recognisable prefix, shown once, stored only as SHA-256.
import { createHash, randomBytes } from 'node:crypto';

export const tokenPrefix = 'alh_';
const tokenShape = /^alh_[A-Za-z0-9_-]{43}$/;

/** A new token (`alh_` + 43 base64url characters). */
export function newToken(): string {
  return `${tokenPrefix}${randomBytes(32).toString('base64url')}`;
}

/** The hex SHA-256 the store keeps instead of the token. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Whether a presented value could be a token at all (anything else is refused without a lookup). */
export function isTokenShaped(value: string): boolean {
  return tokenShape.test(value);
}
