// An in-process CLI context for tests: homes under a temporary folder, outputs captured write by write.
import { join } from 'node:path';
import { readers } from '../../agents/all-readers.js';
import { agentHomes, type CliContext, type Output } from '../context.js';

export interface Captured extends Output {
  /** Every `write`, in order. */
  writes: string[];
  /** Every `control` sequence, in order. */
  controls: string[];
  text(): string;
}

export function captureOutput(isTTY = false): Captured {
  const writes: string[] = [];
  const controls: string[] = [];
  return {
    isTTY,
    writes,
    controls,
    write: (t) => void writes.push(t),
    control: (s) => void controls.push(s),
    text: () => writes.join(''),
  };
}

/** A context whose every agent home and the state root lie under `home` (as `runCli` sets them). */
export function captureContext(home: string, color = false): CliContext & { stdout: Captured; stderr: Captured } {
  const env: Record<string, string> = { CLAUDE_CONFIG_DIR: join(home, '.claude'), CODEX_HOME: join(home, '.codex') };
  const lookup = { env: (name: string) => env[name], homedir: home };
  return {
    stdout: captureOutput(color),
    stderr: captureOutput(),
    stateRoot: join(home, '.agentlog'),
    userHome: home,
    lookup,
    color,
    version: '0.0.0-test',
    agents: async (ids) => agentHomes(lookup, ids === undefined ? readers : readers.filter((r) => ids.includes(r.id))),
    interrupted: () => new Promise<string>(() => undefined),
    stopSignal: () => new AbortController().signal,
    stopCode: () => 130,
    now: () => Date.parse('2026-11-01T12:00:00Z'),
  };
}
