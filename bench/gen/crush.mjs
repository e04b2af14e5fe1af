// Crush sessions (charmbracelet/crush, schema from src/agents/crush/test-support/fixtures.ts, which
// follows Crush's migrations): one `.crush/crush.db` per project, the projects listed in
// `projects.json` of Crush's global data directory (`$XDG_DATA_HOME/crush`). Assistant messages
// carry reasoning, text and tool calls, `tool` messages their results; now and then an `agent`
// call runs a sub-agent session `<message id>$$<call id>` whose cost Crush adds into its parent's.
import Database from 'better-sqlite3';
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { between, codeBlock, countTokens, fillTo, hex, newStats, outputSize, pick, sentence, uuid, words, writeWhole } from './common.mjs';

const cap = 4_000_000;
const projectCount = 12;

/** The schema the reader's fixtures create (Crush's migrations applied), read from them. */
function crushSchema() {
  const here = dirname(fileURLToPath(import.meta.url));
  const source = readFileSync(join(here, '..', '..', 'src', 'agents', 'crush', 'test-support', 'fixtures.ts'), 'utf8');
  const m = /export const crushSchema = `([\s\S]*?)`;/.exec(source);
  if (m === null) throw new Error('bench: cannot find crushSchema in src/agents/crush/test-support/fixtures.ts');
  return m[1];
}

const part = (type, data) => ({ type, data });

/** Writes one session (and any sub-agent it runs) into `db`; answers its bytes of parts. */
function writeSession(db, o, r, stats) {
  const { id, parentId, target } = o;
  let at = o.startS;
  let bytes = 0;
  const messages = [];
  const add = (role, parts, model) => {
    const json = JSON.stringify(parts);
    bytes += json.length + 120;
    messages.push([`${hex(r, 8)}-${hex(r, 4)}-${hex(r, 4)}-${hex(r, 4)}-${hex(r, 12)}`, role, json, model, (at += between(r, 1, 20))]);
    return messages.at(-1)[0];
  };
  let subCost = 0;
  for (let round = 0; bytes < target; round++) {
    if (parentId !== undefined && round > 0) break;
    add('user', [part('text', { text: round === 0 && o.task !== undefined ? o.task : sentence(r, between(r, 8, 50)) })], null);
    const steps = between(r, 1, 4);
    for (let s = 0; s <= steps; s++) {
      const final = s === steps;
      const parts = [];
      if (r() < 0.5)
        parts.push(
          part('reasoning', { thinking: sentence(r, between(r, 10, 80)), signature: hex(r, 40), started_at: at, finished_at: at + 2 }),
        );
      if (final || r() < 0.4) parts.push(part('text', { text: sentence(r, between(r, 20, 150)) }));
      let call;
      if (!final) {
        const callId = `toolu_${hex(r, 24)}`;
        if (parentId === undefined && o.spawn && r() < 0.1) {
          call = { id: callId, name: 'agent', input: JSON.stringify({ prompt: sentence(r, 30) }) };
        } else {
          const tool = pick(r, ['bash', 'bash', 'view', 'edit', 'grep']);
          const file = `${o.cwd}/src/${pick(r, words)}.ts`;
          const input =
            tool === 'bash'
              ? { command: `rg -n ${pick(r, words)} src`, description: sentence(r, 5) }
              : tool === 'edit'
                ? { file_path: file, old_string: codeBlock(r, 150), new_string: codeBlock(r, 200) }
                : tool === 'view'
                  ? { file_path: file }
                  : { pattern: pick(r, words), path: o.cwd };
          call = { id: callId, name: tool, input: JSON.stringify(input) };
        }
        parts.push(part('tool_call', { ...call, provider_executed: false, finished: true }));
      }
      parts.push(part('finish', { reason: final ? 'end_turn' : 'tool_use', time: at + 3 }));
      const messageId = add('assistant', parts, 'claude-sonnet-4-5');
      if (call !== undefined) {
        let content = call.name === 'edit' ? 'Edited.' : codeBlock(r, outputSize(r));
        if (call.name === 'agent') {
          const child = writeSession(
            db,
            { id: `${messageId}$$${call.id}`, parentId: id, cwd: o.cwd, startS: at, target: 20_000, task: JSON.parse(call.input).prompt },
            r,
            stats,
          );
          subCost += child.cost;
          at = child.endS;
          content = child.lastWords;
        }
        add(
          'tool',
          [
            part('tool_result', {
              tool_call_id: call.id,
              name: call.name,
              content,
              data: '',
              mime_type: '',
              metadata: '',
              is_error: r() < 0.05,
            }),
          ],
          null,
        );
      }
    }
  }
  const prompt = between(r, 2000, 150_000);
  const completion = between(r, 50, 4000);
  countTokens(stats, prompt, completion, 0, 0);
  const own = (prompt * 3 + completion * 15) / 1e6;
  db.prepare(
    'INSERT INTO sessions (id, parent_session_id, title, message_count, prompt_tokens, completion_tokens, cost, summary_message_id, updated_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?, ?)',
  ).run(id, parentId ?? null, sentence(r, 4), messages.length, prompt, completion, own + subCost, at, o.startS);
  const insert = db.prepare(
    'INSERT INTO messages (id, session_id, role, parts, model, provider, is_summary_message, created_at, updated_at, finished_at) VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?, ?)',
  );
  for (const [mid, role, json, model, t] of messages)
    insert.run(mid, id, role, json, model, model === null ? null : 'anthropic', t, t, role === 'assistant' ? t + 1 : null);
  const lastText = JSON.parse(messages.at(-1)[2]).find((p) => p.type === 'text');
  return { cost: own + subCost, endS: at, lastWords: lastText?.data.text ?? 'done' };
}

/** Writes Crush projects under `<home>/code/crush-*` and their list under `.local/share/crush`. */
export function generateCrush(home, target, r, now) {
  const stats = newStats();
  const global = join(home, '.local', 'share', 'crush');
  const projects = [];
  const dbs = [];
  const schema = crushSchema();
  for (let i = 0; i < projectCount; i++) {
    const path = join(home, 'code', `crush-project-${i}`);
    mkdirSync(join(path, '.crush'), { recursive: true });
    const db = new Database(join(path, '.crush', 'crush.db'));
    db.pragma('journal_mode = wal');
    db.exec(schema);
    db.exec('BEGIN');
    projects.push({ path, data_dir: join(path, '.crush'), last_accessed: new Date(now).toISOString() });
    dbs.push(db);
  }
  fillTo(stats, target, r, cap, (size, i) => {
    const id = uuid(r);
    const startS = Math.floor((now - 10 * 86_400_000 + Math.floor(r() * 9.5 * 86_400_000)) / 1000);
    const p = i % projectCount;
    writeSession(dbs[p], { id, cwd: projects[p].path, startS, target: size, spawn: true }, r, stats);
    stats.bytes += size;
    stats.sessions++;
    stats.ids.push(id);
  });
  stats.bytes = 0;
  for (const [i, db] of dbs.entries()) {
    db.exec('COMMIT');
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    stats.bytes += statSync(join(projects[i].path, '.crush', 'crush.db')).size;
  }
  stats.bytes += writeWhole(join(global, 'projects.json'), JSON.stringify({ projects }, null, 2));
  stats.files = projectCount + 1;
  return stats;
}
