// `agentlog show <id> --as-sent`: the exact redacted, capped body sync would send for a session, and
// its note, at the level the opt-in gives it, so a person can audit before allowing (seed 003).
import type { AgentReader, DiscoveredSession, ParsedSession } from '../../agents/types.js';
import type { Detail, SessionRecord } from '../../record/types.js';
import { readAllowlist } from '../../sync/allow/allow-file.js';
import { decideOptIn } from '../../sync/allow/opt-in.js';
import { buildNote } from '../../sync/note.js';
import { buildReady } from '../../sync/prepare.js';
import { cachedRealPath, homeForms, syncPaths } from '../../sync/settings.js';
import type { CliContext } from '../context.js';

export async function showAsSent(
  reader: AgentReader,
  session: DiscoveredSession,
  parsed: ParsedSession & { record: SessionRecord },
  asked: Detail | undefined,
  json: boolean,
  ctx: CliContext,
  /** Spans the parse's clips redacted before cutting. */
  parseRedactions: number,
): Promise<number> {
  const allow = await readAllowlist(syncPaths(ctx.lookup, ctx.stateRoot).allowFile);
  const real = cachedRealPath();
  const decision = decideOptIn(parsed.cwds, allow, real);
  const detail = decision.allowed ? decision.detail : (asked ?? 'full');
  if (!decision.allowed) ctx.stderr.write(`note: not opted in (${decision.reason}): sync would not send this; shown at ${detail}\n`);
  else if (asked !== undefined && asked !== detail) ctx.stderr.write(`note: the opt-in sends this at ${detail}, not ${asked}\n`);
  const built = buildReady(reader, session, parsed.record, detail, homeForms(ctx.userHome, real), parseRedactions);
  if (built.kind !== 'ready') {
    const why = built.kind === 'failed' ? (built.report.reason ?? 'failed') : built.kind;
    if (json) ctx.stdout.write(`${JSON.stringify({ opted_in: decision.allowed, detail, status: 'failed', reason: why })}\n`);
    else ctx.stderr.write(`sync would not send this session: ${why}\n`);
    return 1;
  }
  const note =
    built.record.repo === ''
      ? null
      : buildNote(built.record, { agentName: reader.displayName, project: built.project, sourceId: null, transcriptUrl: null });
  if (json) {
    ctx.stdout.write(
      `${JSON.stringify({
        opted_in: decision.allowed,
        ...(decision.allowed ? {} : { reason: decision.reason }),
        detail,
        status: decision.allowed ? 'would_upload' : 'skipped',
        project: built.project,
        sha256: built.sha256,
        bytes: Buffer.byteLength(built.body, 'utf8'),
        redacted: built.redactions,
        body: built.body,
        note,
      })}\n`,
    );
    return 0;
  }
  ctx.stdout.write(`${built.body}\n`);
  if (note !== null) ctx.stdout.write(`\n--- note ${note.slug}: ${note.title}\n\n${note.body}\n`);
  return 0;
}
