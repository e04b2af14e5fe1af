// A temporary machine for the server tests: every agent's home laid out as the agent lays it out,
// filled from the corpus and the agents' own fixtures, with a store and an app over it.
import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { readers } from '../../agents/all-readers.js';
import { agentHomes } from '../../cli/context.js';
import type { HomeLookup } from '../../agents/types.js';
import { FixtureSession } from '../../agents/intendant/test-support/fixture.js';
import { assistant, header, user, writePiFile } from '../../agents/pi/test-support/pi.js';
import { copyCorpus, corpusPath, tempDir } from '../../../test/support/temp.js';
import { createApp } from '../app.js';
import { logDir, openServeLog } from '../serve-log.js';
import { openStore, type ServerStore } from '../store.js';
import type { Hono } from 'hono';

export const testToken = 'x'.repeat(43);
export const testHost = '127.0.0.1:7420';
export const kimiId = 'session_1bcbe023-4f7e-4971-9dc9-43b8756045b0';
export const piId = '0199aaaa-bbbb-7ccc-8ddd-eeeeeeeeeeee';
export const intendantId = '7a1b2c3d-0000-4000-8000-000000000001';

export interface Machine {
  root: string;
  env: Record<string, string>;
  stateRoot: string;
  store: ServerStore;
  app: Hono;
}

export function envFor(root: string): Record<string, string> {
  return {
    HOME: root,
    AGENTLOG_HOME: join(root, '.agentlog'),
    CLAUDE_CONFIG_DIR: join(root, '.claude'),
    CODEX_HOME: join(root, '.codex'),
    KIMI_CODE_HOME: join(root, '.kimi-code'),
    PI_CODING_AGENT_DIR: join(root, '.pi', 'agent'),
    INTENDANT_HOME: join(root, '.intendant'),
    XDG_DATA_HOME: join(root, '.local', 'share'),
    TZ: 'UTC',
    NO_COLOR: '1',
  };
}

/** Fills `root` with one or more sessions of Claude Code (with a subagent), Codex, Kimi, Pi and Intendant. */
export async function fillHomes(root: string): Promise<void> {
  await copyCorpus('claude/projects', join(root, '.claude', 'projects'));
  await copyCorpus('codex/sessions', join(root, '.codex', 'sessions'));
  const kimi = join(root, '.kimi-code', 'sessions', 'wd_project_ac3bb318f98e', kimiId);
  await mkdir(join(kimi, 'agents', 'main'), { recursive: true });
  await mkdir(join(kimi, 'agents', 'agent-0'), { recursive: true });
  await copyFile(corpusPath('kimi/loose/assistant_tools.state.json'), join(kimi, 'state.json'));
  await copyFile(corpusPath('kimi/loose/assistant_tools.wire.jsonl'), join(kimi, 'agents', 'main', 'wire.jsonl'));
  await copyFile(corpusPath('kimi/loose/subagent_agent-0.wire.jsonl'), join(kimi, 'agents', 'agent-0', 'wire.jsonl'));
  await writePiFile(join(root, '.pi', 'agent'), `2026-04-01T09-00-00-000Z_${piId}.jsonl`, [
    header(piId),
    user('p1', null, 'pi: where is the config loaded', 1),
    assistant('p2', 'p1', 2, { text: 'pi: in src/config.ts' }),
  ]);
  const s = await FixtureSession.create(join(root, '.intendant'), intendantId, {
    project_root: '/work/app',
    name: 'Fix auth',
    task: 'Fix auth',
  });
  s.laneUser(1_784_455_407_600, 1, 'Fix auth', { turn: 1 });
  await s.laneAssistant(1_784_455_408_000, 1, 2, 'intendant: the auth check is in middleware');
  await s.save();
}

/** A machine with every home filled, a store and an app on 127.0.0.1:7420 with the test token. */
export async function machine(opts: { fill?: boolean; now?: () => number } = {}): Promise<Machine> {
  const root = await tempDir('agentlog-serve-');
  if (opts.fill !== false) await fillHomes(root);
  const env = envFor(root);
  const lookup: HomeLookup = { env: (n) => env[n], homedir: root };
  const stateRoot = env.AGENTLOG_HOME as string;
  const now = opts.now ?? Date.now;
  const store = openStore({
    stateRoot,
    userHome: root,
    version: 'test',
    agents: agentHomes(lookup, readers),
    now,
    log: openServeLog({ dir: logDir(stateRoot), now }),
  });
  const app = createApp({ store, token: testToken, host: '127.0.0.1', port: 7420, webRoot: null, userHome: root });
  return { root, env, stateRoot, store, app };
}

/** Request headers of an authorised client. */
export function authed(extra: Record<string, string> = {}): Record<string, string> {
  return { Host: testHost, Authorization: `Bearer ${testToken}`, ...extra };
}
