// Small Claude Code homes for tests: lines shaped as Claude Code writes them, laid out under
// `<home>/projects/<dir>/`.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { finaliseRecord } from '../../../record/finalise.js';
import type { Detail, SessionRecord } from '../../../record/types.js';
import type { DiscoveredSession, ParsedSession } from '../../types.js';
import { claudeCodeReader } from '../reader.js';

export const sessionId = '11111111-2222-4333-8444-555555555555';
export const projectDir = '-work-demo';
export const cwd = '/work/demo';

/** An ISO time `n` seconds into 2026. */
export function at(n: number): string {
  return new Date(Date.UTC(2026, 0, 1, 0, 0, 0) + n * 1000).toISOString();
}

type Line = Record<string, unknown>;

let uuidCounter = 0;
function nextUuid(): string {
  uuidCounter++;
  return `u-${uuidCounter}`;
}

export function user(content: unknown, n: number, extra: Line = {}): Line {
  return {
    parentUuid: null,
    isSidechain: false,
    type: 'user',
    sessionId,
    cwd,
    gitBranch: 'main',
    uuid: nextUuid(),
    timestamp: at(n),
    message: { role: 'user', content },
    ...extra,
  };
}

export function assistant(id: string | undefined, content: unknown, n: number, extra: Line = {}, message: Line = {}): Line {
  const msg: Line = { role: 'assistant', model: 'claude-sonnet-4-5', content, ...message };
  if (id !== undefined) msg.id = id;
  return {
    parentUuid: null,
    isSidechain: false,
    type: 'assistant',
    sessionId,
    cwd,
    gitBranch: 'main',
    uuid: nextUuid(),
    timestamp: at(n),
    requestId: id === undefined ? undefined : `req_${id}`,
    message: msg,
    ...extra,
  };
}

export function toolUse(id: string, name: string, input: Line): Line {
  return { type: 'tool_use', id, name, input };
}

export function toolResult(toolUseId: string, content: unknown, extra: Line = {}): Line {
  return { type: 'tool_result', tool_use_id: toolUseId, content, ...extra };
}

export function usage(input: number, output: number, cacheCreate = 0, cacheRead = 0): Line {
  return { input_tokens: input, output_tokens: output, cache_creation_input_tokens: cacheCreate, cache_read_input_tokens: cacheRead };
}

export function jsonl(lines: readonly unknown[]): string {
  return `${lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n')}\n`;
}

export async function write(path: string, body: string | Buffer): Promise<string> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, body);
  return path;
}

/** Writes `<home>/projects/<dir>/<id>.jsonl` and returns its path. */
export async function writeMain(home: string, lines: readonly unknown[], id = sessionId, dir = projectDir): Promise<string> {
  return write(join(home, 'projects', dir, `${id}.jsonl`), jsonl(lines));
}

/** Writes `<home>/projects/<dir>/<session>/subagents/agent-<agentId>.jsonl` (+ `.meta.json` when given). */
export async function writeSubagent(
  home: string,
  agentId: string,
  lines: readonly unknown[],
  meta?: Line,
  id = sessionId,
  dir = projectDir,
): Promise<string> {
  const base = join(home, 'projects', dir, id, 'subagents', `agent-${agentId}`);
  if (meta !== undefined) await write(`${base}.meta.json`, JSON.stringify(meta));
  return write(`${base}.jsonl`, jsonl(lines));
}

export interface Parsed {
  session: DiscoveredSession;
  parsed: ParsedSession;
  record: SessionRecord;
}

/** Claims a file, parses it and finalises the record (no home elision). */
export async function parsePath(path: string, detail: Detail = 'full'): Promise<Parsed> {
  const session = await claudeCodeReader.claim(path);
  if (session === null) throw new Error(`not claimed: ${path}`);
  const parsed = await claudeCodeReader.parse(session, { detail });
  if (parsed.record === null) throw new Error(`no record: ${path}`);
  return { session, parsed, record: finaliseRecord(parsed.record, { detail, elide: (t) => t }) };
}
