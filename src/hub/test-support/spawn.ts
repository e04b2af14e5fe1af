// Hub processes for end-to-end tests: the built CLI's `hub serve` on a free port, its URL read from
// its one `--json` line; users made with the built CLI's `hub user add --json`.
import { type ChildProcess, spawn } from 'node:child_process';
import { cliEnv, cliPath, runCli } from '../../../test/support/cli.js';

export interface HubProcess {
  url: string;
  child: ChildProcess;
  stderr(): string;
  /** SIGTERM (or the given signal) and wait for the exit. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export async function startHub(db: string, home: string): Promise<HubProcess> {
  const child = spawn(process.execPath, [cliPath, 'hub', 'serve', '--db', db, '--listen', '127.0.0.1:0', '--json'], {
    env: cliEnv(home),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr?.setEncoding('utf8').on('data', (d: string) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const line = out.split('\n')[0];
      if (out.includes('\n') && line !== undefined) resolve((JSON.parse(line) as { url: string }).url);
    });
    void exited.then((code) => reject(new Error(`hub serve exited ${code}: ${err}`)));
  });
  return {
    url,
    child,
    stderr: () => err,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** A user's token, made with `hub user add NAME --workspace W --db DB --json`. */
export async function addUser(db: string, home: string, name: string, workspace: string): Promise<string> {
  const r = await runCli(['hub', 'user', 'add', name, '--workspace', workspace, '--db', db, '--json'], home);
  if (r.code !== 0) throw new Error(`hub user add failed: ${r.stderr}`);
  return (JSON.parse(r.stdout) as { token: string }).token;
}

/** POST /v1/sources with a bearer token; the status and the JSON answer. */
export async function postSource(url: string, token: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(new URL('/v1/sources', url), {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', Connection: 'close' },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}
