// The listing cursor: opaque to clients (base64url of `{"v":1,"before":"<ULID>"}`), checked on the
// way back in, so a hand-made or stale-format cursor is a 400 rather than a wrong page.
import { z } from 'zod';

const ulidShape = /^[0-9A-HJKMNP-TV-Z]{26}$/;
const cursorBody = z.object({ v: z.literal(1), before: z.string().regex(ulidShape) }).strict();

export function encodeCursor(before: string): string {
  return Buffer.from(JSON.stringify({ v: 1, before }), 'utf8').toString('base64url');
}

/** The id a cursor points below, or null when it is not one of ours. */
export function decodeCursor(cursor: string): string | null {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) return null;
  try {
    const parsed = cursorBody.safeParse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
    return parsed.success ? parsed.data.before : null;
  } catch {
    return null;
  }
}

export function isUlid(value: string): boolean {
  return ulidShape.test(value);
}
