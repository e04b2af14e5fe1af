// What arrives at POST /v1/sources becomes a ledger row: the record parsed and validated, redacted
// again value by value, hashed as the bytes that will be stored, titled, and filed with its
// project (dropped, not stored, when redaction finds anything in it; seed 003 "Projects").
import type { z } from 'zod';
import { sha256Hex } from '../fs/hash.js';
import { badRequest } from '../server/http-error.js';
import { check } from '../server/params.js';
import { projectRule, sessionRecord, type sourceBody } from './params.js';
import { redactOnArrival, redactText } from './redact.js';
import type { SourceInput } from './store.js';
import { sourceTitle } from './titles.js';

/** The row to file for an upload; a body that is not a session record is a 400. */
export function prepareSource(upload: z.output<typeof sourceBody>): SourceInput {
  let parsed: unknown;
  try {
    parsed = JSON.parse(upload.body);
  } catch {
    throw badRequest('invalid_body', 'body must be the session record as JSON text');
  }
  check(sessionRecord, parsed, 'record');
  const redacted = redactOnArrival(parsed);
  const record = check(sessionRecord, redacted.value, 'record');
  // Unchanged by redaction, the bytes stored are the bytes sent, so the client's own hash finds them.
  const body = redacted.redactions === 0 ? upload.body : JSON.stringify(redacted.value);
  const path = redactText(upload.path ?? `${record.agent} session ${record.session_id}`);
  let project: string | null = null;
  let projectRedactions = 0;
  if (upload.project !== undefined && upload.project !== null) {
    const p = redactText(upload.project);
    projectRedactions = p.redactions;
    project = p.redactions === 0 && projectRule.test(p.text) ? p.text : null;
  }
  return {
    kind: upload.kind,
    scope: upload.scope,
    path: path.text,
    title: sourceTitle(record, path.text),
    project,
    agent: record.agent,
    session_id: record.session_id,
    started_at: record.started_at ?? null,
    body,
    sha256: sha256Hex(body),
    redactions: redacted.redactions + path.redactions + projectRedactions,
  };
}
