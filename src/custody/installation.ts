// Installations: one agent home each, kept under `kept/<key>/`. The key is derived from the
// canonical home (or named with --installation) and recorded once in installation.json; a key
// another home already holds is refused (InstallationKeyTaken).
import { sha256Hex } from '../fs/hash.js';
import { readdirSync, readFileSync, realpathSync, lstatSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { agentIds, type AgentId } from '../record/types.js';
import { CustodyError, custodyErrors, printable } from './errors.js';
import { installationFile, keptBase, keptRoot, uniqueTempPath } from './paths.js';
import { ensureDirs, lstatNow } from './safe-fs.js';

export interface InstallationRecord {
  version: 1;
  key: string;
  agent: AgentId;
  /** The home as configured (resolved), and its real path: either identifies the installation. */
  home: string;
  canonical_home: string;
  created_at: string;
  agentlog_version: string;
}

const recordStrings = ['key', 'home', 'canonical_home', 'created_at', 'agentlog_version'] as const;

/**
 * An installation.json checked by hand, field by field: every command that reads sessions lists
 * the installations at start-up, and loading zod there cost more than a `show` by id (measured).
 */
function asRecord(v: unknown): InstallationRecord | null {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return null;
  const r = v as Record<string, unknown>;
  if (r.version !== 1 || !(agentIds as readonly unknown[]).includes(r.agent)) return null;
  if (!recordStrings.every((k) => typeof r[k] === 'string')) return null;
  const { version, key, agent, home, canonical_home, created_at, agentlog_version } = r as unknown as InstallationRecord;
  return { version, key, agent, home, canonical_home, created_at, agentlog_version };
}

export interface Installation {
  key: string;
  agent: AgentId;
  /** The kept root: `<state>/kept/<key>`. */
  root: string;
  record: InstallationRecord;
}

const namePattern = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const maxRecordBytes = 64 * 1024;

/** A name given with --installation: a plain folder name. */
export function installationName(name: string): string {
  if (!namePattern.test(name) || name.includes('..')) {
    throw new CustodyError(
      'InvalidInstallationName',
      `"${printable(name)}" cannot name an installation: use 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit`,
    );
  }
  return name;
}

/** The derived key: the agent and a hash of the canonical home, so it is stable across runs and machines' env spellings. */
export function derivedKey(agent: AgentId, canonicalHome: string): string {
  return `${agent}-${sha256Hex(canonicalHome).slice(0, 12)}`;
}

/** The home's real path when it exists (a symlinked ~/.claude is one installation with its target), else the resolved path. */
export function canonicalHomeSync(home: string): string {
  try {
    return realpathSync(home);
  } catch {
    return resolve(home);
  }
}

function parseRecord(text: string): InstallationRecord | null {
  try {
    return asRecord(JSON.parse(text));
  } catch {
    return null;
  }
}

/** True when the recorded installation is this agent home. */
export function holdsHome(record: InstallationRecord, agent: AgentId, home: string, canonical: string): boolean {
  return record.agent === agent && (record.canonical_home === canonical || record.home === resolve(home));
}

function byAge(a: Installation, b: Installation): number {
  if (a.record.created_at !== b.record.created_at) return a.record.created_at < b.record.created_at ? -1 : 1;
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

// The records are a handful of small files read on every keep and read: synchronously, since a
// thread-pool round trip per call costs more than the calls (a keep of an unchanged home is short).
function readRecord(root: string): InstallationRecord | null {
  const path = join(root, installationFile);
  const st = lstatNow(path);
  if (st === null) return null;
  if (!st.isFile() || st.size > maxRecordBytes) throw custodyErrors.unsafePath(path, 'it is not a small regular file');
  return parseRecord(readFileSync(path, 'utf8'));
}

/** Every installation kept under the state root, oldest first (folders that are links or hold no valid record are ignored). */
export async function listInstallations(stateRoot: string): Promise<Installation[]> {
  const base = keptBase(stateRoot);
  const baseStat = lstatNow(base);
  if (baseStat === null || !baseStat.isDirectory()) return [];
  const out: Installation[] = [];
  for (const key of readdirSync(base)) {
    const root = join(base, key);
    const st = lstatNow(root);
    if (st === null || !st.isDirectory()) continue;
    let record: InstallationRecord | null = null;
    try {
      record = readRecord(root);
    } catch {
      // Not a record custody wrote: not an installation.
    }
    if (record !== null && record.key === key) out.push({ key, agent: record.agent, root, record });
  }
  return out.sort(byAge);
}

/** The same listing, synchronously, for the CLI's start-up (a handful of small files). */
export function listInstallationsSync(stateRoot: string): Installation[] {
  const base = keptBase(stateRoot);
  const out: Installation[] = [];
  let keys: string[];
  try {
    if (!lstatSync(base).isDirectory()) return [];
    keys = readdirSync(base);
  } catch {
    return [];
  }
  for (const key of keys) {
    const root = join(base, key);
    try {
      if (!lstatSync(root).isDirectory()) continue;
      const file = join(root, installationFile);
      const st = lstatSync(file);
      if (!st.isFile() || st.size > maxRecordBytes) continue;
      const record = parseRecord(readFileSync(file, 'utf8'));
      if (record !== null && record.key === key) out.push({ key, agent: record.agent, root, record });
    } catch {
      // An unreadable installation is skipped at start-up; `keep` reports it.
    }
  }
  return out.sort(byAge);
}

/** The installations that keep this agent home, oldest first (a catalog reads only these). */
export function installationsOf(list: readonly Installation[], agent: AgentId, home: string): Installation[] {
  const canonical = canonicalHomeSync(home);
  return list.filter((i) => holdsHome(i.record, agent, home, canonical));
}

export interface OpenInstallationOptions {
  /** The state root, already canonical (custody trusts it and refuses links below it). */
  stateRoot: string;
  agent: AgentId;
  home: string;
  /** --installation NAME; else the home's existing installation, else the derived key. */
  name?: string;
  version: string;
  now: () => number;
}

/** Finds or records the installation a keep of this home writes into. */
export async function openInstallation(opts: OpenInstallationOptions): Promise<Installation> {
  const canonical = canonicalHomeSync(opts.home);
  let key: string;
  if (opts.name !== undefined) key = installationName(opts.name);
  else {
    const existing = (await listInstallations(opts.stateRoot)).find((i) => holdsHome(i.record, opts.agent, opts.home, canonical));
    if (existing !== undefined) return existing;
    key = derivedKey(opts.agent, canonical);
  }
  const root = keptRoot(opts.stateRoot, key);
  await ensureDirs(opts.stateRoot, `kept/${key}`);
  const taken = (record: InstallationRecord): CustodyError =>
    new CustodyError(
      'InstallationKeyTaken',
      `installation "${key}" already keeps ${record.agent} home ${record.home}, not ${opts.home}; choose another --installation name`,
      root,
    );
  const found = readRecord(root);
  if (found !== null) {
    if (!holdsHome(found, opts.agent, opts.home, canonical)) throw taken(found);
    return { key, agent: opts.agent, root, record: found };
  }
  const record: InstallationRecord = {
    version: 1,
    key,
    agent: opts.agent,
    home: resolve(opts.home),
    canonical_home: canonical,
    created_at: new Date(opts.now()).toISOString(),
    agentlog_version: opts.version,
  };
  const path = join(root, installationFile);
  // Created only if none exists (a hard link): two first keeps cannot both win.
  await writeFileAtomic(path, `${JSON.stringify(record, null, 2)}\n`, { onlyIfAbsent: true, temp: uniqueTempPath(path) });
  const now = readRecord(root);
  if (now === null) throw custodyErrors.io(path, 'read back', new Error('installation record is missing or invalid'));
  if (!holdsHome(now, opts.agent, opts.home, canonical)) throw taken(now);
  return { key, agent: opts.agent, root, record: now };
}
