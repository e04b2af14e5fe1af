// OpenCode sessions in both of its stores (research peers.md §5, corpus opencode/): the v1.2+
// SQLite database `opencode.db` (schema taken from the reader's test fixtures, which follow
// OpenCode's first migration) and the older JSON tree `storage/{session,message,part}` it leaves
// behind. A `task` tool call launches a child session (`parentID`); a few sessions sit in both
// stores, as after OpenCode's migration, and must still be listed once.
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  between,
  codeBlock,
  countTokens,
  fillTo,
  hex,
  newStats,
  outputSize,
  pick,
  projectCwd,
  sentence,
  words,
  writeWhole,
} from './common.mjs';

const cap = 6_000_000;
/** Share of OpenCode's bytes in the database (the rest in the JSON tree). */
const databaseShare = 0.6;
/** Share of database sessions whose JSON files were left behind too. */
const leftBehind = 0.05;

/** The schema the reader's fixtures create (OpenCode v1.2's first migration), read from them. */
function opencodeSchema() {
  const here = dirname(fileURLToPath(import.meta.url));
  const source = readFileSync(join(here, '..', '..', 'src', 'agents', 'opencode', 'test-support', 'fixtures.ts'), 'utf8');
  const m = /export const opencodeSchema = `([\s\S]*?)`;/.exec(source);
  if (m === null) throw new Error('bench: cannot find opencodeSchema in src/agents/opencode/test-support/fixtures.ts');
  return m[1];
}

/** Ids that sort in creation order, as OpenCode's do (time, then a counter, then randomness). */
class Ids {
  constructor(r) {
    this.r = r;
    this.counter = 0;
  }
  next(prefix, ms) {
    const t = (BigInt(ms) * 4096n + BigInt(this.counter++ % 4096)).toString(16).padStart(14, '0');
    return `${prefix}_${t}${hex(this.r, 14)}`;
  }
}

function tokens(r) {
  return {
    input: between(r, 5, 4000),
    output: between(r, 20, 1500),
    reasoning: between(r, 0, 400),
    cache: { read: between(r, 0, 80_000), write: between(r, 0, 3000) },
  };
}

function addTokens(a, b) {
  return {
    input: a.input + b.input,
    output: a.output + b.output,
    reasoning: a.reasoning + b.reasoning,
    cache: { read: a.cache.read + b.cache.read, write: a.cache.write + b.cache.write },
  };
}

/**
 * One session (and any child its `task` calls launch) as `{session, messages: [{info, parts}]}`,
 * about `target` bytes of message and part JSON. `sessions` receives the children first.
 */
function buildSession(o, r, ids, sessions) {
  const { cwd, projectId } = o;
  let ms = o.startMs;
  const id = o.id ?? ids.next('ses', ms);
  const session = {
    id,
    version: '1.2.10',
    projectID: projectId,
    directory: cwd,
    ...(o.parentId === undefined ? {} : { parentID: o.parentId }),
    title: sentence(r, 4),
    time: { created: ms, updated: ms },
  };
  const messages = [];
  let bytes = 0;
  const model = pick(r, [
    { providerID: 'anthropic', modelID: 'claude-sonnet-4-5' },
    { providerID: 'openai', modelID: 'gpt-5-codex' },
  ]);
  let spawned = false;
  let lastWords = '';
  for (let round = 0; bytes < o.target; round++) {
    if (o.parentId !== undefined && round > 0) break;
    const userId = ids.next('msg', (ms += between(r, 500, 30_000)));
    const ask = round === 0 && o.task !== undefined ? o.task : sentence(r, between(r, 8, 50));
    const user = {
      info: { role: 'user', time: { created: ms }, agent: 'build', model },
      parts: [{ id: ids.next('prt', ms), type: 'text', text: ask, time: { start: ms, end: ms } }],
    };
    if (r() < 0.1)
      user.parts.push({
        id: ids.next('prt', ms),
        type: 'text',
        text: `Called the Read tool with the following input: {"filePath":"${cwd}/README.md"}`,
        synthetic: true,
      });
    messages.push({ id: userId, ...user });
    const steps = between(r, 1, 5);
    for (let s = 0; s <= steps; s++) {
      const final = s === steps;
      const created = (ms += between(r, 200, 5000));
      const msgId = ids.next('msg', created);
      const parts = [];
      let total = { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } };
      let cost = 0;
      const snapshot = hex(r, 40);
      parts.push({ id: ids.next('prt', ms), type: 'step-start', snapshot });
      if (r() < 0.5)
        parts.push({
          id: ids.next('prt', ms),
          type: 'reasoning',
          text: sentence(r, between(r, 10, 80)),
          time: { start: ms, end: (ms += 800) },
          metadata: {},
        });
      if (final || r() < 0.4) {
        lastWords = sentence(r, between(r, 20, 150));
        parts.push({ id: ids.next('prt', ms), type: 'text', text: lastWords, time: { start: ms, end: (ms += 300) } });
      }
      if (!final) {
        if (o.spawn !== undefined && !spawned && r() < 0.15) {
          spawned = true;
          const input = { description: sentence(r, 4), prompt: sentence(r, 30), subagent_type: 'general' };
          const child = o.spawn(input.prompt, ms, id);
          parts.push({
            id: ids.next('prt', ms),
            type: 'tool',
            callID: `toolu_${hex(r, 24)}`,
            tool: 'task',
            state: {
              status: 'completed',
              input,
              output: child.lastWords,
              title: input.description,
              metadata: { sessionId: child.id, summary: [] },
              time: { start: ms, end: child.endMs },
            },
          });
          ms = Math.max(ms, child.endMs);
        } else {
          const tool = pick(r, ['bash', 'bash', 'read', 'edit', 'grep']);
          const file = `${cwd}/src/${pick(r, words)}.ts`;
          const input =
            tool === 'bash'
              ? { command: `rg -n ${pick(r, words)} src`, description: sentence(r, 5) }
              : tool === 'read'
                ? { filePath: file }
                : tool === 'edit'
                  ? { filePath: file, oldString: codeBlock(r, 150), newString: codeBlock(r, 200) }
                  : { pattern: pick(r, words), path: cwd };
          const exit = tool === 'bash' && r() < 0.08 ? 1 : 0;
          const output = tool === 'edit' ? '' : codeBlock(r, outputSize(r));
          const metadata =
            tool === 'bash'
              ? { output: output.slice(0, 30_000), exit, description: input.description }
              : tool === 'edit'
                ? { diff: `Index: ${file}\n${codeBlock(r, 300)}`, filediff: { file, additions: 3, deletions: 2 } }
                : { preview: output.slice(0, 200), truncated: false };
          parts.push({
            id: ids.next('prt', ms),
            type: 'tool',
            callID: `toolu_${hex(r, 24)}`,
            tool,
            state: {
              status: 'completed',
              input,
              output,
              title: tool === 'bash' ? input.description : file,
              metadata,
              time: { start: ms, end: (ms += between(r, 50, 4000)) },
            },
          });
        }
      }
      const step = tokens(r);
      countTokens(o.stats, step.input, step.output, step.cache.read, step.cache.write);
      const stepCost = (step.input * 3 + step.output * 15 + step.cache.read * 0.3 + step.cache.write * 3.75) / 1e6;
      total = addTokens(total, step);
      cost += stepCost;
      parts.push({
        id: ids.next('prt', ms),
        type: 'step-finish',
        reason: final ? 'stop' : 'tool-calls',
        snapshot,
        cost: stepCost,
        tokens: step,
      });
      if (!final && r() < 0.2)
        parts.push({ id: ids.next('prt', ms), type: 'patch', hash: hex(r, 40), files: [`${cwd}/src/${pick(r, words)}.ts`] });
      const info = {
        role: 'assistant',
        time: { created, completed: (ms += 100) },
        parentID: userId,
        modelID: model.modelID,
        providerID: model.providerID,
        mode: 'build',
        agent: 'build',
        path: { cwd, root: cwd },
        cost,
        tokens: total,
        finish: final ? 'stop' : 'tool-calls',
      };
      messages.push({ id: msgId, info, parts });
      bytes += JSON.stringify(info).length + parts.reduce((n, p) => n + JSON.stringify(p).length + 120, 0);
    }
  }
  session.time.updated = ms;
  sessions.push({ session, messages });
  return { id, endMs: ms, lastWords };
}

function writeDatabaseSessions(db, list, projectId, cwd, projectsSeen) {
  if (!projectsSeen.has(projectId)) {
    projectsSeen.add(projectId);
    db.prepare("INSERT INTO project VALUES (?, ?, 'git', NULL, NULL, NULL, ?, ?, NULL, '[]')").run(
      projectId,
      cwd,
      list[0].session.time.created,
      list[0].session.time.created,
    );
  }
  const addSession = db.prepare(
    'INSERT INTO session (id, project_id, parent_id, slug, directory, title, version, time_created, time_updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const addMessage = db.prepare('INSERT INTO message VALUES (?, ?, ?, ?, ?)');
  const addPart = db.prepare('INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)');
  db.transaction(() => {
    for (const { session: s, messages } of list) {
      addSession.run(
        s.id,
        projectId,
        s.parentID ?? null,
        s.title.toLowerCase().replace(/\W+/g, '-'),
        s.directory,
        s.title,
        s.version,
        s.time.created,
        s.time.updated,
      );
      for (const m of messages) {
        const created = m.info.time.created;
        addMessage.run(m.id, s.id, created, m.info.time.completed ?? created, JSON.stringify(m.info));
        for (const { id, ...data } of m.parts) addPart.run(id, m.id, s.id, created, created, JSON.stringify(data));
      }
    }
  })();
}

/** Writes the JSON tree files of the sessions; returns [files, bytes]. */
function writeJsonSessions(storage, list) {
  let files = 0;
  let bytes = 0;
  for (const { session: s, messages } of list) {
    bytes += writeWhole(join(storage, 'session', s.projectID, `${s.id}.json`), JSON.stringify(s));
    files++;
    for (const m of messages) {
      bytes += writeWhole(join(storage, 'message', s.id, `${m.id}.json`), JSON.stringify({ id: m.id, sessionID: s.id, ...m.info }));
      files++;
      for (const p of m.parts) {
        const { id, ...data } = p;
        bytes += writeWhole(join(storage, 'part', m.id, `${id}.json`), JSON.stringify({ id, sessionID: s.id, messageID: m.id, ...data }));
        files++;
      }
    }
  }
  return [files, bytes];
}

/** Writes OpenCode sessions under `<home>/.local/share/opencode` until `target` bytes. */
export function generateOpencode(home, target, r, now) {
  const root = join(home, '.local', 'share', 'opencode');
  const storage = join(root, 'storage');
  const dbPath = join(root, 'opencode.db');
  const stats = newStats();
  stats.database = { sessions: 0, bytes: 0 };
  stats.tree = { sessions: 0, files: 0, bytes: 0 };
  stats.both = 0;
  const ids = new Ids(r);
  writeWhole(join(storage, 'migration'), '2');
  const db = new Database(dbPath);
  db.pragma('journal_mode = wal');
  db.exec(opencodeSchema());
  const projectsSeen = new Set();
  // Bytes are estimated while writing the database (its size is known once it is closed).
  let dbEstimate = 0;
  fillTo(stats, target, r, cap, (size, i) => {
    const cwd = projectCwd(i);
    // OpenCode names a project by its repository's first commit; a hash of the folder stands in.
    const projectId = createHash('sha1').update(cwd).digest('hex');
    const inDatabase = r() < databaseShare;
    const list = [];
    const spawn = (task, atMs, parentId) =>
      buildSession({ cwd, projectId, startMs: atMs + 20, target: Math.min(300_000, size / 6 + 3000), task, parentId, stats }, r, ids, list);
    const startMs = now - 10 * 86_400_000 + Math.floor(r() * 9.5 * 86_400_000);
    const main = buildSession({ cwd, projectId, startMs, target: size, spawn: r() < 0.3 ? spawn : undefined, stats }, r, ids, list);
    const estimate = list.reduce(
      (n, { messages }) => n + messages.reduce((k, m) => k + JSON.stringify(m).length + 100 * m.parts.length, 0),
      0,
    );
    if (inDatabase) {
      writeDatabaseSessions(db, list, projectId, cwd, projectsSeen);
      dbEstimate += estimate;
      stats.bytes += estimate;
      stats.database.sessions++;
      if (r() < leftBehind) {
        // Migrated: the JSON files stay behind beside the database's copy.
        const [files, bytes] = writeJsonSessions(storage, list);
        stats.tree.files += files;
        stats.tree.bytes += bytes;
        stats.bytes += bytes;
        stats.both++;
      }
    } else {
      const [files, bytes] = writeJsonSessions(storage, list);
      stats.tree.files += files;
      stats.tree.bytes += bytes;
      stats.tree.sessions++;
      stats.bytes += bytes;
    }
    stats.sessions++;
    stats.ids.push(main.id);
  });
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  const dbBytes = statSync(dbPath).size;
  stats.database.bytes = dbBytes;
  stats.bytes = stats.bytes - dbEstimate + dbBytes;
  stats.files = stats.tree.files + 1;
  return stats;
}
