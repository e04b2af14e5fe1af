// Claude Code homes for the search tests: sessions written as Claude Code lays them out, with times
// relative to a fixed clock so the 14-day window is deterministic.
import { appendFile, mkdir, utimes, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { claudeCodeReader } from '../../agents/claude-code/reader.js';
import type { AgentHomes } from '../../scan/scan.js';
import { storeRoot } from '../store.js';

/** The tests' "now": 2026-03-01T00:00:00Z. */
export const testNow = Date.UTC(2026, 2, 1);
export const clock = (): number => testNow;
export const minutes = (n: number): number => n * 60_000;
export const days = (n: number): number => n * 86_400_000;

let counter = 0;

export interface Said {
  role: 'user' | 'assistant';
  text: string;
  /** Milliseconds before `testNow`. */
  ago: number;
  extra?: Record<string, unknown>;
}

/** One Claude Code line for a message said `ago` ms before the test clock. */
export function line(sessionId: string, m: Said): Record<string, unknown> {
  counter++;
  const uuid = `${m.role[0]}-${counter}`;
  const timestamp = new Date(testNow - m.ago).toISOString();
  const message =
    m.role === 'user'
      ? { role: 'user', content: m.text }
      : { role: 'assistant', id: `msg_${counter}`, model: 'claude-sonnet-4-5', content: [{ type: 'text', text: m.text }] };
  return { parentUuid: null, isSidechain: false, type: m.role, sessionId, cwd: '/work/demo', uuid, timestamp, message, ...m.extra };
}

export function jsonl(lines: readonly unknown[]): string {
  return `${lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n')}\n`;
}

export function claudeHome(home: string): string {
  return join(home, '.claude');
}

export function sessionPath(home: string, sessionId: string, project = '-work-demo'): string {
  return join(claudeHome(home), 'projects', project, `${sessionId}.jsonl`);
}

/** Writes a main transcript; returns its path. */
export async function writeSession(home: string, sessionId: string, said: readonly Said[], project?: string): Promise<string> {
  const path = sessionPath(home, sessionId, project);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, jsonl(said.map((m) => line(sessionId, m))));
  // The file was last written when its newest message was said (on the tests' clock).
  const last = new Date(testNow - Math.min(...said.map((m) => m.ago), 0));
  await utimes(path, last, last);
  return path;
}

export async function appendSaid(path: string, sessionId: string, said: readonly Said[]): Promise<number> {
  const body = jsonl(said.map((m) => line(sessionId, m)));
  await appendFile(path, body);
  return Buffer.byteLength(body);
}

/** The agent list a sweep takes: Claude Code over `<home>/.claude`, then any extra homes (kept copies). */
export function claudeAgents(home: string, extraHomes: string[] = []): AgentHomes[] {
  return [{ reader: claudeCodeReader, homes: [claudeHome(home), ...extraHomes] }];
}

export function testStore(home: string): string {
  return storeRoot(join(home, '.agentlog'));
}
