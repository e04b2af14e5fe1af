// Reads one Codex session (its rollout and its spawned agents' rollouts) into the record.
import type { DiscoveredSession, FileProblem, ParseContext, ParsedSession } from '../types.js';
import { newRecord } from '../../record/draft.js';
import { errorMessage } from '../../fs/errors.js';
import { readRollout } from './read-rollout.js';
import { nestSpawned } from './spawned-agents.js';
import type { DetailNeeds, RolloutThread } from './thread-builder.js';

export async function parseCodexSession(session: DiscoveredSession, ctx: ParseContext): Promise<ParsedSession> {
  const needs: DetailNeeds = { tools: ctx.detail === 'full', texts: ctx.detail !== 'summary' };
  const badLines: { path: string; count: number }[] = [];
  const problems: FileProblem[] = [];
  const [mainFile, ...childFiles] = session.files;
  if (mainFile === undefined) return { record: null, cwds: [], badLines, problems };

  // The main file's I/O errors propagate (the caller reports the session unreadable); a child's
  // only costs that child.
  const main = await readRollout(mainFile.path, needs);
  if (main.badLines > 0) badLines.push({ path: mainFile.path, count: main.badLines });
  const children: RolloutThread[] = [];
  const reads = await Promise.all(
    childFiles.map(async (f) => {
      try {
        return await readRollout(f.path, needs);
      } catch (error) {
        problems.push({ path: f.path, kind: 'unreadable', reason: errorMessage(error) });
        return undefined;
      }
    }),
  );
  reads.forEach((r, i) => {
    if (r === undefined) return;
    const path = childFiles[i]?.path ?? '';
    if (r.badLines > 0) badLines.push({ path, count: r.badLines });
    if (r.thread.found) children.push(r.thread);
    else problems.push({ path, kind: 'unparsed', reason: 'no Codex thread in this file' });
  });

  const thread = main.thread;
  if (!thread.found) return { record: null, cwds: [], badLines, problems };
  const cwds = [...thread.cwds];
  nestSpawned(thread, children, needs, cwds);

  const record = newRecord('codex', session.sessionId);
  record.repo = thread.meta?.cwd ?? thread.cwds[0] ?? '';
  record.branch = thread.meta?.branch ?? null;
  record.models = thread.models;
  record.started_at = thread.span.started_at;
  record.ended_at = thread.span.ended_at;
  record.turns = thread.turns;
  record.totals = thread.totals;
  if (thread.usageApart.length > 0) record.usage_apart = thread.usageApart;
  return { record, cwds, badLines, problems };
}
