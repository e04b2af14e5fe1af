// Builds small Pi session files for tests, in the shapes pi writes (v3 trees and older flat files).
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export type PiLine = Record<string, unknown>;

export const t0 = Date.parse('2026-04-01T09:00:00.000Z');
export const iso = (s: number): string => new Date(t0 + s * 1000).toISOString();

/** v3 fields; pass `null` ids for an old flat file. */
const ids = (id: string | null, parentId: string | null): PiLine => (id === null ? {} : { id, parentId });

export function header(id: string, cwd = '/work/app', version: number | undefined = 3): PiLine {
  return { type: 'session', ...(version === undefined ? {} : { version }), id, timestamp: iso(0), cwd };
}

export function user(id: string | null, parentId: string | null, text: string, s: number): PiLine {
  return {
    type: 'message',
    ...ids(id, parentId),
    timestamp: iso(s),
    message: { role: 'user', content: [{ type: 'text', text }], timestamp: t0 + s * 1000 },
  };
}

export interface AssistantBody {
  text?: string;
  thinking?: string;
  calls?: { id: string; name: string; arguments: PiLine }[];
  stopReason?: string;
  errorMessage?: string;
  model?: string;
  input?: number;
  output?: number;
  cost?: number;
}

export function assistant(id: string | null, parentId: string | null, s: number, b: AssistantBody): PiLine {
  const content: PiLine[] = [];
  if (b.thinking !== undefined) content.push({ type: 'thinking', thinking: b.thinking, thinkingSignature: 'sig' });
  if (b.text !== undefined) content.push({ type: 'text', text: b.text });
  for (const c of b.calls ?? []) content.push({ type: 'toolCall', ...c });
  const input = b.input ?? 100;
  const output = b.output ?? 10;
  const cost = b.cost ?? 0.01;
  const message: PiLine = {
    role: 'assistant',
    content,
    api: 'anthropic-messages',
    provider: 'anthropic',
    model: b.model ?? 'claude-sonnet-4-5',
    usage: { input, output, cacheRead: 5, cacheWrite: 1, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: cost } },
    stopReason: b.stopReason ?? ((b.calls?.length ?? 0) > 0 ? 'toolUse' : 'stop'),
    timestamp: t0 + s * 1000,
  };
  if (b.errorMessage !== undefined) message['errorMessage'] = b.errorMessage;
  return { type: 'message', ...ids(id, parentId), timestamp: iso(s), message };
}

export function toolResult(
  id: string | null,
  parentId: string | null,
  toolCallId: string,
  toolName: string,
  text: string,
  s: number,
  isError = false,
): PiLine {
  return {
    type: 'message',
    ...ids(id, parentId),
    timestamp: iso(s),
    message: { role: 'toolResult', toolCallId, toolName, content: [{ type: 'text', text }], isError, timestamp: t0 + s * 1000 },
  };
}

/** Writes `<home>/sessions/--work-app--/<name>` and returns its path. */
export async function writePiFile(
  home: string,
  name: string,
  lines: readonly PiLine[],
  tail = '',
  cwdDir = '--work-app--',
): Promise<string> {
  const dir = join(home, 'sessions', cwdDir);
  await mkdir(dir, { recursive: true });
  const path = join(dir, name);
  await writeFile(path, lines.map((l) => `${JSON.stringify(l)}\n`).join('') + tail);
  return path;
}
