// The raw baseline for one agent's files, on one core with no other work: JSONL files are read in
// large chunks, split into lines and JSON.parse-d line by line (baseline.mjs); a JSON document
// (Gemini CLI chat, OpenCode storage file, state.json, session_meta.json) is read whole and
// JSON.parse-d once; a plain sidecar (Intendant's turns/*.txt) is only read; a SQLite database
// (OpenCode, Crush, Goose) gets a SELECT of every row of its session and message tables with their
// JSON columns (`data`, `parts`, `content_json`) JSON.parse-d, which is the least any reader of that
// store must do (Crush keeps its databases in project folders that `projects.json` lists); a Markdown
// log (Aider) is read, decoded and split into lines.
import Database from 'better-sqlite3';
import { closeSync, existsSync, openSync, readFileSync, readSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { baselineParse } from './baseline.mjs';

/** Where each agent's files live inside a bench home (as `agentEnv` points the agents there). */
export const agentRoots = {
  claude_code: '.claude',
  codex: '.codex',
  kimi: '.kimi-code',
  pi: join('.pi', 'agent'),
  intendant: '.intendant',
  gemini: '.gemini',
  opencode: join('.local', 'share', 'opencode'),
  cline: join('.cline', 'data'),
  roo_code: join('.config', 'Code', 'User', 'globalStorage', 'rooveterinaryinc.roo-cline'),
  qwen: '.qwen',
  crush: join('.local', 'share', 'crush'),
  goose: join('.local', 'share', 'goose'),
  cursor: '.cursor',
  copilot: '.copilot',
  droid: '.factory',
  // Aider keeps one history per repository; the bench's repositories all lie under code/.
  aider: 'code',
};

/** Folders an agent keeps sessions in outside its root, found from what the root lists. */
const listedFolders = {
  // Crush: each project's data directory, from projects.json in its global data directory.
  crush: (root) => {
    try {
      return JSON.parse(readFileSync(join(root, 'projects.json'), 'utf8')).projects.map((p) => p.data_dir);
    } catch {
      return [];
    }
  },
};

export const agentIds = Object.keys(agentRoots);

/** The generator's name for an agent's stats (`claude` for claude_code). */
export function statsKey(agent) {
  return agent === 'claude_code' ? 'claude' : agent;
}

function walk(dir, out) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    if (error.code === 'ENOENT') return out;
    throw error;
  }
  for (const e of entries) {
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else if (e.isFile()) out.push(p);
  }
  return out;
}

/** Every file of one agent in the home, by kind; a database's -wal/-shm files go with it. */
export function agentFiles(home, agent) {
  const files = { jsonl: [], json: [], text: [], sqlite: [], markdown: [] };
  const root = join(home, agentRoots[agent]);
  const folders = [root, ...(listedFolders[agent]?.(root) ?? [])];
  for (const path of folders.flatMap((f) => walk(f, []))) {
    if (path.endsWith('.jsonl')) files.jsonl.push(path);
    else if (path.endsWith('.json')) files.json.push(path);
    else if (path.endsWith('.db')) files.sqlite.push(path);
    else if (path.endsWith('.md')) files.markdown.push(path);
    else if (!/\.db-(wal|shm)$/.test(path)) files.text.push(path);
  }
  return files;
}

export function fileCount(files) {
  return files.jsonl.length + files.json.length + files.text.length + files.sqlite.length + files.markdown.length;
}

/** Bytes of the files, databases with their write-ahead logs. */
export function filesBytes(files) {
  let n = 0;
  for (const f of [...files.jsonl, ...files.json, ...files.text, ...files.markdown]) n += statSync(f).size;
  for (const db of files.sqlite) {
    n += statSync(db).size;
    if (existsSync(`${db}-wal`)) n += statSync(`${db}-wal`).size;
  }
  return n;
}

function readOnly(files, buf) {
  let bytes = 0;
  for (const f of files) {
    const fd = openSync(f, 'r');
    try {
      for (let n = readSync(fd, buf, 0, buf.length, null); n > 0; n = readSync(fd, buf, 0, buf.length, null)) bytes += n;
    } finally {
      closeSync(fd);
    }
  }
  return bytes;
}

function parseDocuments(files) {
  let records = 0;
  let bad = 0;
  for (const f of files) {
    records++;
    try {
      JSON.parse(readFileSync(f, 'utf8'));
    } catch {
      bad++;
    }
  }
  return { records, bad };
}

/** The tables a session store keeps its sessions and messages in, and the JSON column of each. */
const sessionTables = [
  ['session', null],
  ['message', 'data'],
  ['part', 'data'],
  // Crush (`parts`); Goose (`content_json`).
  ['sessions', null],
  ['messages', 'parts'],
  ['messages', 'content_json'],
];
/** A Markdown log (Aider's history) read, decoded and split into lines: the least a reader of it does. */
function splitLines(files) {
  let lines = 0;
  for (const f of files) lines += readFileSync(f, 'utf8').split('\n').length;
  return lines;
}

function selectAll(databases) {
  let records = 0;
  let bad = 0;
  for (const path of databases) {
    const db = new Database(path, { readonly: true, fileMustExist: true });
    try {
      const columns = (table) =>
        new Set(
          db
            .prepare('SELECT name FROM pragma_table_info(?)')
            .all(table)
            .map((c) => c.name),
        );
      const read = new Set();
      for (const [table, json] of sessionTables) {
        const have = columns(table);
        if (have.size === 0 || read.has(table) || (json !== null && !have.has(json))) continue;
        read.add(table);
        for (const row of db.prepare(`SELECT * FROM ${table}`).all()) {
          records++;
          if (json === null) continue;
          try {
            JSON.parse(row[json]);
          } catch {
            bad++;
          }
        }
      }
    } finally {
      db.close();
    }
  }
  return { records, bad };
}

/** Runs the baseline over one agent's files; `records` are lines, documents and rows parsed. */
export function baselineAgent(files) {
  const bytes = filesBytes(files);
  const started = process.hrtime.bigint();
  const lines = baselineParse(files.jsonl);
  const docs = parseDocuments(files.json);
  readOnly(files.text, Buffer.allocUnsafe(4 << 20));
  const markdownLines = splitLines(files.markdown);
  const rows = selectAll(files.sqlite);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return {
    seconds,
    bytes,
    records: lines.lines + docs.records + rows.records + markdownLines,
    bad: lines.bad + docs.bad + rows.bad,
    mibps: bytes / 1048576 / seconds,
  };
}
