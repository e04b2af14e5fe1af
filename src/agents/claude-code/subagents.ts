// Joins Claude Code subagent transcripts to the calls that launched them and nests each one there
// (seed 003 "Subagents"). Rules, in order, each pass only over what earlier passes left unjoined:
//  1. by id: a `.meta.json`'s `toolUseId` names the call; else the call's `toolUseResult.agentId`
//     equals the transcript's agent id (file name `agent-<id>.jsonl`, or `agentId` on inline lines);
//  2. by prompt: the transcript's first user text equals the call's `prompt` (older inline sidechains
//     carry no agent id at all, as in the real 774 KB corpus session);
//  3. by order: the parent's first unjoined launch made before the transcript began.
// An inline sidechain nothing launched (a fixture, or an `agent-*.jsonl` whose main file is gone)
// is read as the main agent's own turns where it began. A subagent file nothing launched keeps its
// place as a stand-in `Agent` call in its parent, so its tokens stay its own.
import { clipInput, clipOutput } from '../../record/clip.js';
import { newSubagent } from '../../record/draft.js';
import type { Subagent, ToolCall, Turn } from '../../record/types.js';
import type { LaunchCall, SessionState } from './session-state.js';
import type { Transcript } from './transcript.js';

export interface SubagentMeta {
  agentType?: string;
  description?: string;
  toolUseId?: string;
  parentAgentId?: string;
}

/** A subagent transcript from its own file (`<session>/subagents/` or a loose `agent-*.jsonl`). */
export interface FileSubagent {
  id: string;
  transcript: Transcript;
  meta: SubagentMeta | undefined;
}

interface Candidate {
  t: Transcript;
  /** Set for file subagents. */
  file?: FileSubagent;
  launch?: LaunchCall;
}

/** Everything a subagent has been joined to, with the span it widens the session by. */
export interface Assembled {
  subagents: Subagent[];
}

export function assembleSubagents(
  state: SessionState,
  main: Transcript,
  inline: readonly Transcript[],
  files: readonly FileSubagent[],
): Assembled {
  const parentOf = new Map<Transcript, Transcript>();
  const byFileId = new Map<string, FileSubagent>();
  for (const f of files) byFileId.set(f.id, f);

  const startOf = (c: Candidate): string => c.t.span.started_at ?? '';
  const fileCandidates: Candidate[] = files
    .map((file) => ({ t: file.transcript, file }))
    .sort((a, b) => (startOf(a) < startOf(b) ? -1 : startOf(a) > startOf(b) ? 1 : 0));
  const candidates: Candidate[] = [...inline.map((t) => ({ t })), ...fileCandidates];

  const isAncestor = (t: Transcript, of: Transcript): boolean => {
    for (let p: Transcript | undefined = of; p !== undefined; p = parentOf.get(p)) if (p === t) return true;
    return false;
  };
  const idOf = (c: Candidate): string | undefined => c.file?.id ?? c.t.agentId;
  const canJoin = (c: Candidate, l: LaunchCall | undefined): l is LaunchCall => {
    if (l === undefined || l.joined !== undefined || isAncestor(c.t, l.owner)) return false;
    // A launch whose result named another agent belongs to that one.
    const id = idOf(c);
    return l.agentId === undefined || id === undefined || l.agentId === id;
  };
  const join = (c: Candidate, l: LaunchCall): void => {
    l.joined = c.t;
    c.launch = l;
    parentOf.set(c.t, l.owner);
  };

  for (const c of candidates) {
    const byToolUse = c.file?.meta?.toolUseId === undefined ? undefined : state.launchById.get(c.file.meta.toolUseId);
    const id = idOf(c);
    const l = canJoin(c, byToolUse) ? byToolUse : id === undefined ? undefined : state.launchByAgentId.get(id);
    if (canJoin(c, l)) join(c, l);
  }
  for (const c of candidates) {
    const prompt = c.t.firstPrompt;
    if (c.launch !== undefined || prompt === undefined || prompt === '') continue;
    const l = state.launches.find((x) => x.prompt?.trim() === prompt && canJoin(c, x));
    if (l !== undefined) join(c, l);
  }
  for (const c of candidates) {
    if (c.launch !== undefined) continue;
    const parentId = c.file?.meta?.parentAgentId;
    const parent = (parentId === undefined ? undefined : byFileId.get(parentId)?.transcript) ?? main;
    const start = c.t.span.started_at;
    const l = state.launches.find((x) => {
      if (x.owner !== parent || !canJoin(c, x)) return false;
      // Within one file, line order tells which launches came first; across files, timestamps do.
      if (c.file === undefined) return x.seq < c.t.firstSeq;
      return x.at === null || start === null || x.at <= start;
    });
    if (l !== undefined) join(c, l);
  }

  const subagents: Subagent[] = [];
  let unnamed = 0;
  const build = (c: Candidate): Subagent => {
    const l = c.launch;
    const id = idOf(c) ?? l?.agentId ?? l?.toolUseId ?? `sidechain-${++unnamed}`;
    const sub = newSubagent(id);
    sub.name = c.file?.meta?.agentType ?? l?.subagentType ?? l?.resultAgentType ?? null;
    sub.description = c.file?.meta?.description ?? l?.description ?? null;
    sub.models = c.t.models;
    sub.started_at = c.t.span.started_at;
    sub.ended_at = c.t.span.ended_at;
    sub.status = state.notifiedStatus(l?.toolUseId, id) ?? l?.resultStatus ?? null;
    c.t.usage.settle(sub);
    sub.turns = c.t.turns;
    subagents.push(sub);
    return sub;
  };

  for (const c of candidates) {
    const l = c.launch;
    if (l === undefined) continue;
    l.call.subagent = build(c);
    if (state.full) {
      // The call's output is the subagent's last words (a background launch's receipt is replaced).
      const words = c.t.lastWords();
      if (words !== undefined) l.call.output = clipOutput(words);
    }
  }

  // Unlaunched inline sidechains become the main agent's own turns, where their lines stood.
  for (const c of candidates) if (c.launch === undefined && c.file === undefined) main.absorb(c.t);

  for (const c of fileCandidates) {
    if (c.launch !== undefined) continue;
    const sub = build(c);
    const parentId = c.file?.meta?.parentAgentId;
    const parentFile = parentId === undefined ? undefined : byFileId.get(parentId);
    const parent = parentFile !== undefined && !isAncestor(c.t, parentFile.transcript) ? parentFile.transcript : main;
    parentOf.set(c.t, parent);
    const call: ToolCall = { name: 'Agent' };
    if (state.full) {
      call.format = 'text';
      if (c.t.firstPrompt !== undefined) call.input = clipInput(c.t.firstPrompt);
      const words = c.t.lastWords();
      if (words !== undefined) call.output = clipOutput(words);
    }
    call.subagent = sub;
    insertByTime(parent.turns, { role: 'assistant', at: sub.started_at, text: '', tool_calls: [call] });
  }
  return { subagents };
}

function insertByTime(turns: Turn[], turn: Turn): void {
  const at = turn.at;
  const i = at === null ? -1 : turns.findIndex((t) => t.at !== null && t.at > at);
  if (i === -1) turns.push(turn);
  else turns.splice(i, 0, turn);
}
