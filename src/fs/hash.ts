// The one content hash: SHA-256 as hex (a string hashed as UTF-8), whole or as its short form.
import { nodeCrypto } from './crypto.js';

/** The SHA-256 of `data` as 64 hex digits (a string is hashed as UTF-8). */
export function sha256Hex(data: string | Uint8Array): string {
  const h = nodeCrypto().createHash('sha256');
  if (typeof data === 'string') h.update(data, 'utf8');
  else h.update(data);
  return h.digest('hex');
}

/** 16 hex digits of the SHA-256 of `data`: the short form used to compare and name content. */
export function hash16(data: string | Uint8Array): string {
  return sha256Hex(data).slice(0, 16);
}
