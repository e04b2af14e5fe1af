// The message locator as tool input: the same shapes search_messages hands out (record/message-index).
import { z } from 'zod';
import type { Locator } from '../record/message-index.js';

const hash = z.string().regex(/^[0-9a-f]{16}$/, 'content_hash16 is 16 hex digits');
const offset = z.number().int().nonnegative();

export const locatorSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('native_message_id'), message_id: z.string() }),
  z.object({ kind: z.literal('native_event'), line_no: offset, content_hash16: hash }),
  z.object({ kind: z.literal('native_sidecar_span'), file: z.string(), offset, len: offset, content_hash16: hash }),
  z.object({ kind: z.literal('external_record_id'), record_id: z.string(), file: z.string().optional() }),
  z.object({ kind: z.literal('external_line'), line_offset: offset, content_hash16: hash, file: z.string().optional() }),
]) satisfies z.ZodType<Locator>;

/** One spelling per locator, so two equal locators compare equal as text. */
export function locatorKey(l: Locator): string {
  const entries = Object.entries(l)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify(entries);
}
