// The one short content hash: the first 16 hex digits of SHA-256, used to compare and name content.
import { createHash } from 'node:crypto';

/** 16 hex digits of the SHA-256 of `data` (a string is hashed as UTF-8). */
export function hash16(data: string | Uint8Array): string {
  const h = createHash('sha256');
  if (typeof data === 'string') h.update(data, 'utf8');
  else h.update(data);
  return h.digest('hex').slice(0, 16);
}
