// The CLI edge: the only place that reads the environment and the real home directory.
import { readFileSync } from 'node:fs';
import { homedir, constants as osConstants } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AgentReader, HomeLookup } from '../agents/types.js';
import { agentIds, type AgentId } from '../record/types.js';
import type { AgentHomes } from '../scan/scan.js';
import type { AgentSource } from '../scan/resolve.js';

export interface Output {
  /** Human output passes the one sanitiser on its way here (see terminal-safe.ts); --json's stdout does not. */
  write(text: string): void;
  /** agentlog's own terminal sequences (a progress line's carriage return and erase), never log text. */
  control(sequence: string): void;
  readonly isTTY: boolean;
}

export interface CliContext {
  stdout: Output;
  stderr: Output;
  /** `AGENTLOG_HOME`, else `~/.agentlog`. */
  stateRoot: string;
  userHome: string;
  lookup: HomeLookup;
  /** Colour and bold on a TTY unless NO_COLOR is set. */
  color: boolean;
  version: string;
  /**
   * Every reader (or those of the agents named) with the homes its variables name (and the kept
   * copies after them), in the registry's order. A function so that only the commands that read
   * sessions load readers, and a command about one session loads only that agent's.
   */
  agents(ids?: readonly AgentId[]): Promise<AgentHomes[]>;
  /**
   * Of the agents loaded so far, those whose homes come from the known projects (Aider), with their
   * homes for this list instead (kept copies after them, as `agents` gives them).
   */
  projectHomes?(projects: readonly string[]): Promise<AgentHomes[]>;
  /** Resolves with the signal that asks a long-running command to stop (handlers installed on first call). */
  interrupted(): Promise<string>;
  /**
   * Aborts when SIGINT or SIGTERM asks a long-running command to stop; before any command asked for
   * it, a signal ends the process at once (130/143), and so does a second signal.
   */
  stopSignal(): AbortSignal;
  /** The exit code for the signal that stopped the command: 130 for SIGINT, 143 for SIGTERM (128 + its number). */
  stopCode(): number;
  now(): number;
}

function packageVersion(): string {
  try {
    const here = fileURLToPath(new URL('.', import.meta.url));
    const pkg = JSON.parse(readFileSync(join(here, '..', '..', 'package.json'), 'utf8')) as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : '0.0.0';
  } catch {
    return '0.0.0';
  }
}

/** 128 + the signal's number, as shells report a process a signal ended (SIGINT 130, SIGTERM 143). */
export function exitCodeForSignal(name: NodeJS.Signals): number {
  return 128 + (osConstants.signals[name] ?? 0);
}

export function agentHomes(lookup: HomeLookup, list: readonly AgentReader[]): AgentHomes[] {
  return list.map((reader) => ({ reader, homes: reader.homes(lookup).map((h) => resolve(h)) }));
}

/** Narrows the agent list to the ids named (e.g. from `--agent codex,claude_code`). */
export function selectAgents(agents: AgentHomes[], ids: readonly AgentId[] | undefined): AgentHomes[] {
  if (ids === undefined || ids.length === 0) return agents;
  return agents.filter((a) => ids.includes(a.reader.id));
}

/** The agents a command asks about (every one, or those `--agent` names), each reader loaded only when needed. */
export function agentSource(ctx: Pick<CliContext, 'agents'>, selected: readonly AgentId[] | undefined): AgentSource {
  const ids = agentIds.filter((id) => selected === undefined || selected.includes(id));
  return { ids, load: (only) => ctx.agents(only === undefined ? ids : ids.filter((id) => only.includes(id))) };
}

/**
 * The readers of these agents with their homes, each loaded on first use (agents that keep logs in
 * projects look where earlier scans saw sessions run). Answers in the registry's order.
 */
function agentLoader(
  lookup: HomeLookup,
  stateRoot: string,
): Pick<CliContext, 'projectHomes'> & { agents: (ids?: readonly AgentId[]) => Promise<AgentHomes[]> } {
  const loaded = new Map<AgentId, Promise<AgentHomes>>();
  let setup: Promise<{ projectLookup: HomeLookup; keptRoots: (one: AgentHomes) => AgentHomes }> | undefined;
  const prepare = async () => {
    const [{ withKeptRoots }, { listInstallationsSync }, { readKnownProjects }] = await Promise.all([
      import('../custody/kept-homes.js'),
      import('../custody/installation.js'),
      import('../scan/known-projects.js'),
    ]);
    const projectLookup: HomeLookup = { ...lookup, projects: readKnownProjects(stateRoot) };
    const installations = listInstallationsSync(stateRoot);
    // Kept copies are read after the vendor homes, so a session the agent pruned still shows.
    const keptRoots = (one: AgentHomes): AgentHomes => withKeptRoots([one], stateRoot, installations)[0] ?? one;
    return { projectLookup, keptRoots };
  };
  const one = (id: AgentId): Promise<AgentHomes> => {
    let found = loaded.get(id);
    if (found === undefined) {
      found = (async () => {
        const [{ loadReader }, { projectLookup, keptRoots }] = await Promise.all([import('../agents/registry.js'), (setup ??= prepare())]);
        const [homes] = agentHomes(projectLookup, [await loadReader(id)]);
        if (homes === undefined) throw new Error(`no reader for ${id}`);
        return keptRoots(homes);
      })();
      loaded.set(id, found);
    }
    return found;
  };
  const projectHomes = async (projects: readonly string[]): Promise<AgentHomes[]> => {
    const { projectLookup, keptRoots } = await (setup ??= prepare());
    const out: AgentHomes[] = [];
    for (const found of loaded.values()) {
      const { reader } = await found;
      const [now] = agentHomes(projectLookup, [reader]);
      const [then] = agentHomes({ ...projectLookup, projects }, [reader]);
      if (now === undefined || then === undefined) continue;
      if (now.homes.length !== then.homes.length || now.homes.some((h, i) => h !== then.homes[i])) out.push(keptRoots(then));
    }
    return out;
  };
  return { agents: (ids) => Promise.all(agentIds.filter((id) => ids === undefined || ids.includes(id)).map(one)), projectHomes };
}

function rawOutput(stream: NodeJS.WriteStream): Output {
  const write = (t: string): void => void stream.write(t);
  return { write, control: write, isTTY: stream.isTTY === true };
}

export function processContext(): CliContext {
  const env = process.env;
  const userHome = env.HOME !== undefined && env.HOME !== '' ? env.HOME : homedir();
  const lookup: HomeLookup = {
    env: (name) => {
      const v = env[name];
      return v === undefined || v === '' ? undefined : v;
    },
    homedir: userHome,
  };
  const stateRoot = resolve(lookup.env('AGENTLOG_HOME') ?? join(userHome, '.agentlog'));
  const { agents, projectHomes } = agentLoader(lookup, stateRoot);
  let stop: AbortController | undefined;
  let received: NodeJS.Signals | undefined;
  const stopCode = (): number => exitCodeForSignal(received ?? 'SIGINT');
  // Installed at once, so a signal during start-up still ends with 130/143. Until a command asks for
  // `stopSignal` (it has safe points to stop at), a signal ends the process right away; after, the
  // first one asks the command to stop and a second ends the process (the person means it; a lock
  // left behind is broken by pid liveness).
  for (const name of ['SIGINT', 'SIGTERM'] as const) {
    process.on(name, () => {
      if (stop === undefined || stop.signal.aborted) process.exit(exitCodeForSignal(received ?? name));
      received = name;
      stop.abort(new Error(`stopped by ${name}`));
    });
  }
  const stopSignal = (): AbortSignal => {
    stop ??= new AbortController();
    return stop.signal;
  };
  const onInterrupt = (): Promise<string> =>
    new Promise<string>((res) => {
      const signal = stopSignal();
      if (signal.aborted) res(received ?? 'SIGINT');
      else signal.addEventListener('abort', () => res(received ?? 'SIGINT'), { once: true });
    });
  // Output to a pipe is asynchronous in Node: a large `show` would queue its whole text in memory
  // (measured: 490 MiB for the 87 MB bench session). Blocking writes keep memory to one chunk.
  for (const stream of [process.stdout, process.stderr]) {
    const handle = (stream as unknown as { _handle?: { setBlocking?: (on: boolean) => void } })._handle;
    handle?.setBlocking?.(true);
  }
  // A reader that closes the pipe early (`| head`) ends the output, not the process with a stack.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw error;
    });
  }
  return {
    stdout: rawOutput(process.stdout),
    stderr: rawOutput(process.stderr),
    stateRoot,
    userHome,
    lookup,
    color: process.stdout.isTTY === true && env.NO_COLOR === undefined,
    version: packageVersion(),
    agents,
    projectHomes,
    interrupted: onInterrupt,
    stopSignal,
    stopCode,
    now: () => Date.now(),
  };
}
