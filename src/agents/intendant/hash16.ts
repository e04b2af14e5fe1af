// hash16: the first 8 bytes of SHA-256 over a string's UTF-8 as 16 lowercase hex characters, the
// content fingerprint of epoch mappings and locators (research/intendant.md, opening section).
import { createHash } from 'node:crypto';

/** e.g. `hash16("hello") === "2cf24dba5fb0a30e"`. */
export function hash16(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 16);
}
