// Runs the built CLI as a user would (every home in a temporary folder), killed past its time bound so
// a hang fails its case instead of blocking the suite.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { cliPath } from '../support/cli.js';

export interface BoundedResult {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  ms: number;
}

export function homeEnv(home: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    AGENTLOG_HOME: join(home, '.agentlog'),
    CLAUDE_CONFIG_DIR: join(home, '.claude'),
    CODEX_HOME: join(home, '.codex'),
    KIMI_CODE_HOME: join(home, '.kimi-code'),
    PI_CODING_AGENT_DIR: join(home, '.pi', 'agent'),
    INTENDANT_HOME: join(home, '.intendant'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    TZ: 'UTC',
    NO_COLOR: '1',
  };
}

/** Runs `agentlog <args>`; past `boundMs` the process is killed and the result says `timedOut`. */
export function runBounded(args: readonly string[], home: string, boundMs: number): Promise<BoundedResult> {
  const started = performance.now();
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [cliPath, ...args], { env: homeEnv(home), stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, boundMs);
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => err.push(d));
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({
        code,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        timedOut,
        ms: performance.now() - started,
      });
    });
  });
}

/** Characters that must never reach a terminal raw: C0 but tab and newline, DEL, C1, BiDi controls. */
export const rawControl = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

/** The first raw control character in `text` with a little context, or null. */
export function firstRawControl(text: string): string | null {
  const m = rawControl.exec(text);
  if (m === null) return null;
  const cp = (m[0].codePointAt(0) as number).toString(16).padStart(4, '0');
  return `U+${cp} at ${m.index}: ${JSON.stringify(text.slice(Math.max(0, m.index - 40), m.index + 40))}`;
}
