// Test homes for custody: the real Claude Code corpus copied into a temporary CLAUDE_CONFIG_DIR
// (writable, as Claude Code leaves it), and a small generic JSONL reader for agent-neutral cases.
import { chmod, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { claudeCodeReader } from '../../agents/claude-code/reader.js';
import { piReader } from '../../agents/pi/reader.js';
import type { AgentReader, DiscoveredSession, TreeEntry } from '../../agents/types.js';
import { statFile } from '../../fs/stat.js';
import { copyCorpus, tempDir } from '../../../test/support/temp.js';
import { Catalog, type CatalogOptions } from '../catalog.js';

export const sampleId = 'fe5e1c67-53e7-4862-81ae-d0e013e3270b';
export const smallId = '1af7fc5e-8455-4414-9ccd-011d40f70b2a';
export const demoId = '0a1b2c3d-4e5f-4061-8071-2a3b4c5d6e7f';
export const demoAgent = 'a0ad4f44468bdf20d';

/** Makes every copied file and folder writable by its owner (the corpus is read-only). */
export async function makeWritable(path: string): Promise<void> {
  const st = await stat(path);
  await chmod(path, st.isDirectory() ? 0o755 : 0o644);
  if (st.isDirectory()) for (const name of await readdir(path)) await makeWritable(join(path, name));
}

export interface TestHome {
  /** The temporary HOME. */
  home: string;
  /** CLAUDE_CONFIG_DIR. */
  claude: string;
  /** AGENTLOG_HOME. */
  state: string;
  catalog(extra?: Partial<CatalogOptions>): Promise<Catalog>;
  /** Absolute path of a file under the Claude home. */
  vendor(rel: string): string;
}

/** A temporary home with both Claude Code corpus projects under `.claude/projects`. */
export async function claudeHome(readers: readonly AgentReader[] = [claudeCodeReader]): Promise<TestHome> {
  const home = await tempDir('agentlog-custody-');
  const claude = join(home, '.claude');
  await copyCorpus('claude/projects', join(claude, 'projects'));
  await makeWritable(claude);
  const state = join(home, '.agentlog');
  return {
    home,
    claude,
    state,
    catalog: (extra = {}) =>
      Catalog.open({
        stateRoot: state,
        agents: readers.map((reader) => ({ reader, homes: [claude] })),
        version: '0.0.0-test',
        now: () => Date.parse('2026-01-02T03:04:05Z'),
        ...extra,
      }),
    vendor: (rel) => join(claude, rel),
  };
}

export const mainRel = (project: string, id: string): string => `projects/${project}/${id}.jsonl`;

/** Every file under a folder, relative, with its bytes (for byte-identity checks). */
export async function treeBytes(root: string, skip: (rel: string) => boolean = () => false): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const walk = async (dir: string): Promise<void> => {
    for (const e of await readdir(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      const rel = relative(root, p);
      if (skip(rel)) continue;
      if (e.isDirectory()) await walk(p);
      else if (e.isFile()) out.set(rel, (await readFile(p)).toString('base64'));
    }
  };
  await walk(root);
  return out;
}

/**
 * A generic JSONL agent for agent-neutral cases: `<home>/sessions/<id>.jsonl` plus any files in
 * `<home>/sessions/<id>/`. `extraTree` lets a test add entries (bad relPaths, exports).
 */
export function jsonlReader(opts: { extraTree?: (s: DiscoveredSession) => TreeEntry[]; ext?: string } = {}): AgentReader {
  const ext = opts.ext ?? '.jsonl';
  const sessionOf = async (home: string, name: string): Promise<DiscoveredSession | null> => {
    const path = join(home, 'sessions', name);
    const f = await statFile(path);
    if (f === null) return null;
    return { agent: 'pi', sessionId: name.slice(0, -ext.length), home, path, files: [f] };
  };
  return {
    id: 'pi',
    displayName: 'Test JSONL',
    aliases: [],
    homeVariables: [],
    homes: () => [],
    // Never indexed by these tests; the interface requires an extractor.
    messages: piReader.messages,
    async discover(home) {
      let names: string[] = [];
      try {
        names = (await readdir(join(home, 'sessions'))).filter((n) => n.endsWith(ext));
      } catch {
        return { sessions: [], problems: [] };
      }
      const sessions = (await Promise.all(names.sort().map((n) => sessionOf(home, n)))).filter((s): s is DiscoveredSession => s !== null);
      return { sessions, problems: [] };
    },
    claim: async () => null,
    parse: async () => ({ record: null, cwds: [], badLines: [], problems: [] }),
    async tree(session) {
      const entries: TreeEntry[] = session.files.map((f) => ({ relPath: relative(session.home, f.path), kind: 'file', path: f.path }));
      return [...entries, ...(opts.extraTree?.(session) ?? [])];
    },
  };
}

/** Writes `<home>/sessions/<id>.jsonl` with the given lines (each followed by a newline). */
export async function writeSession(home: string, id: string, lines: readonly string[], ext = '.jsonl'): Promise<string> {
  const path = join(home, 'sessions', `${id}${ext}`);
  await mkdir(join(home, 'sessions'), { recursive: true });
  await writeFile(path, lines.map((l) => `${l}\n`).join(''));
  return path;
}

export const line = (i: number, extra: Record<string, unknown> = {}): string =>
  JSON.stringify({
    type: i % 2 === 0 ? 'user' : 'assistant',
    uuid: `u${i}`,
    sessionId: 's',
    timestamp: `2026-01-01T00:00:${String(i % 60).padStart(2, '0')}.000Z`,
    message: { role: i % 2 === 0 ? 'user' : 'assistant', content: `line ${i}` },
    ...extra,
  });
