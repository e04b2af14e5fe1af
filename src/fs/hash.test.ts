import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hash16 } from './hash.js';

describe('hash16', () => {
  it('is the first 16 hex digits of SHA-256 over UTF-8', () => {
    expect(hash16('hello')).toBe('2cf24dba5fb0a30e');
    expect(hash16('')).toBe('e3b0c44298fc1c14');
  });
  it('hashes a string and its UTF-8 bytes alike', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        expect(hash16(s)).toBe(hash16(Buffer.from(s, 'utf8')));
        expect(hash16(s)).toBe(createHash('sha256').update(Buffer.from(s, 'utf8')).digest('hex').slice(0, 16));
      }),
    );
  });
});
