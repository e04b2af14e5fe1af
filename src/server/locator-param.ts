// The `locate=` parameter: a locator exactly as `search --json` prints it (URL-encoded JSON, or
// base64url of it), checked by kind before anything resolves it. Anything else is a 400.
import { z } from 'zod';
import type { Locator } from '../record/message-index.js';
import { badRequest } from './http-error.js';

const hash16 = z.string().regex(/^[0-9a-f]{16}$/);
const relFile = z
  .string()
  .min(1)
  .max(1024)
  .refine((f) => !f.startsWith('/') && !f.split(/[\\/]/).includes('..') && !f.includes('\u0000'), 'a path inside the session');
const nat = z.number().int().nonnegative();

const locatorSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('native_message_id'), message_id: z.string().min(1).max(512) }).strict(),
  z.object({ kind: z.literal('native_event'), line_no: nat, content_hash16: hash16 }).strict(),
  z.object({ kind: z.literal('native_sidecar_span'), file: relFile, offset: nat, len: nat, content_hash16: hash16 }).strict(),
  z.object({ kind: z.literal('external_record_id'), record_id: z.string().min(1).max(512), file: relFile.optional() }).strict(),
  z.object({ kind: z.literal('external_line'), line_offset: nat, content_hash16: hash16, file: relFile.optional() }).strict(),
]);

const maxParamBytes = 8 * 1024;

/** The locator in a `locate=` value; a 400 `invalid_locate` for anything that is not one. */
export function parseLocateParam(raw: string): Locator {
  const text = raw.trim();
  if (text === '' || Buffer.byteLength(text) > maxParamBytes)
    throw badRequest('invalid_locate', 'invalid locate parameter: empty or longer than 8 KiB');
  let json: unknown;
  try {
    json = JSON.parse(text.startsWith('{') ? text : Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw badRequest('invalid_locate', 'invalid locate parameter: not a locator (JSON, or base64url of JSON)');
  }
  const parsed = locatorSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw badRequest(
      'invalid_locate',
      `invalid locate parameter: ${issue?.path.join('.') || 'kind'}: ${issue?.message ?? 'not a locator'}`,
    );
  }
  return parsed.data as Locator;
}
