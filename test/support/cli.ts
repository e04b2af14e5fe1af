// Runs the built CLI as a user would, with every home pointed into a temporary folder.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from './temp.js';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export const cliPath = join(repoRoot, 'dist', 'cli', 'main.js');

/** The environment the CLI runs in: every home inside `home`, UTC, no colour. */
export function cliEnv(home: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    AGENTLOG_HOME: join(home, '.agentlog'),
    CLAUDE_CONFIG_DIR: join(home, '.claude'),
    CODEX_HOME: join(home, '.codex'),
    TZ: 'UTC',
    NO_COLOR: '1',
  };
}

/**
 * `home` becomes HOME and the default for AGENTLOG_HOME (`<home>/.agentlog`), CLAUDE_CONFIG_DIR
 * (`<home>/.claude`) and CODEX_HOME (`<home>/.codex`); `env` overrides any of them.
 */
export function runCli(args: readonly string[], home: string, env: Record<string, string> = {}, input?: string): Promise<CliResult> {
  const base = cliEnv(home);
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [cliPath, ...args], { env: { ...base, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code, stdout, stderr }));
    child.stdin.end(input ?? '');
  });
}
