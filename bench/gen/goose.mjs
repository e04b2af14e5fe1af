// Goose sessions (block/goose; schema from src/agents/goose/test-support/fixtures.ts, which follows
// Goose's session/storage.rs create_schema, version 13): `sessions/sessions.db` under
// `$XDG_DATA_HOME/goose`, plus a few legacy `sessions/<id>.jsonl` files from before the database
// (some already imported into it, which must still be listed once). Assistant messages carry
// thinking, text and tool requests; the next user message carries the tool responses.
import Database from 'better-sqlite3';
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  between,
  codeBlock,
  countTokens,
  fillTo,
  hex,
  LineFile,
  newStats,
  outputSize,
  pick,
  projectCwd,
  sentence,
  words,
} from './common.mjs';

const cap = 4_000_000;
/** Share of sessions written as legacy JSONL (the rest in the database). */
const legacyShare = 0.15;
/** Share of legacy sessions the database imported (the file left behind). */
const importedShare = 0.3;

function gooseSchema() {
  const here = dirname(fileURLToPath(import.meta.url));
  const source = readFileSync(join(here, '..', '..', 'src', 'agents', 'goose', 'test-support', 'fixtures.ts'), 'utf8');
  const m = /export const gooseSchema = `([\s\S]*?)`;/.exec(source);
  if (m === null) throw new Error('bench: cannot find gooseSchema in src/agents/goose/test-support/fixtures.ts');
  return m[1];
}

/** One session's messages, about `target` bytes: `{role, created, content, metadata}`. */
function buildMessages(target, r, startS, cwd) {
  const messages = [];
  let at = startS;
  let bytes = 0;
  const push = (role, content, metadata = { userVisible: true, agentVisible: true }) => {
    const m = { id: `msg_${hex(r, 24)}`, role, created: (at += between(r, 1, 30)), content, metadata };
    bytes += JSON.stringify(content).length + 80;
    messages.push(m);
  };
  while (bytes < target) {
    push('user', [{ type: 'text', text: sentence(r, between(r, 8, 50)) }]);
    if (r() < 0.1)
      push('user', [{ type: 'text', text: `<info-msg>${sentence(r, 20)}</info-msg>` }], { userVisible: false, agentVisible: true });
    const steps = between(r, 1, 4);
    for (let s = 0; s <= steps; s++) {
      const final = s === steps;
      const content = [];
      if (r() < 0.4) content.push({ type: 'thinking', thinking: sentence(r, between(r, 10, 60)), signature: hex(r, 32) });
      if (final || r() < 0.4) content.push({ type: 'text', text: sentence(r, between(r, 20, 150)) });
      if (final) {
        push('assistant', content);
        continue;
      }
      const id = `toolu_${hex(r, 24)}`;
      const editor = r() < 0.35;
      const file = `${cwd}/src/${pick(r, words)}.ts`;
      const args = editor
        ? { command: 'str_replace', path: file, old_str: codeBlock(r, 150), new_str: codeBlock(r, 200) }
        : { command: `rg -n ${pick(r, words)} src` };
      content.push({
        type: 'toolRequest',
        id,
        toolCall: { status: 'success', value: { name: editor ? 'developer__text_editor' : 'developer__shell', arguments: args } },
      });
      push('assistant', content);
      const output = editor ? `The file ${file} has been edited.` : codeBlock(r, outputSize(r));
      push('user', [
        {
          type: 'toolResponse',
          id,
          toolResult: { status: 'success', value: { content: [{ type: 'text', text: output }], isError: r() < 0.05 } },
        },
      ]);
    }
  }
  return { messages, endS: at };
}

const sqlTime = (s) => new Date(s * 1000).toISOString().slice(0, 19).replace('T', ' ');

/** Writes Goose sessions under `<home>/.local/share/goose/sessions` until `target` bytes. */
export function generateGoose(home, target, r, now) {
  const stats = newStats();
  const dir = join(home, '.local', 'share', 'goose', 'sessions');
  const dbPath = join(dir, 'sessions.db');
  const legacyIds = new Set();
  let legacyBytes = 0;
  let legacyFiles = 0;
  let sequence = 0;
  mkdirSync(dir, { recursive: true });
  const db = new Database(dbPath);
  db.pragma('journal_mode = wal');
  db.exec(gooseSchema());
  const addSession = db.prepare(
    `INSERT INTO sessions (id, name, user_set_name, session_type, working_dir, created_at, updated_at, extension_data,
       total_tokens, input_tokens, output_tokens, accumulated_total_tokens, accumulated_input_tokens, accumulated_output_tokens,
       accumulated_cost, provider_name, model_config_json, goose_mode)
     VALUES (?, ?, FALSE, 'user', ?, ?, ?, '{}', ?, ?, ?, ?, ?, ?, ?, 'anthropic', ?, 'auto')`,
  );
  const addMessage = db.prepare(
    'INSERT INTO messages (message_id, session_id, role, content_json, created_timestamp, metadata_json) VALUES (?, ?, ?, ?, ?, ?)',
  );
  db.exec('BEGIN');
  fillTo(stats, target, r, cap, (size, i) => {
    const cwd = projectCwd(i);
    const startS = Math.floor((now - 10 * 86_400_000 + Math.floor(r() * 9.5 * 86_400_000)) / 1000);
    const { messages, endS } = buildMessages(size, r, startS, cwd);
    const input = between(r, 5_000, 400_000);
    const output = between(r, 200, 20_000);
    countTokens(stats, input, output, 0, 0);
    const legacy = r() < legacyShare;
    const day = new Date(startS * 1000).toISOString().slice(0, 10).replace(/-/g, '');
    const id = legacy ? `${day}_${String(100000 + sequence++).slice(1)}` : `${day}_${++sequence}`;
    if (legacy) {
      const f = new LineFile(join(dir, `${id}.jsonl`));
      f.line({
        working_dir: cwd,
        description: sentence(r, 4),
        schedule_id: null,
        message_count: messages.length,
        total_tokens: null,
        input_tokens: null,
        output_tokens: null,
        accumulated_total_tokens: input + output,
        accumulated_input_tokens: input,
        accumulated_output_tokens: output,
      });
      for (const m of messages) f.line({ role: m.role, created: m.created, content: m.content, metadata: m.metadata });
      f.close();
      legacyBytes += f.size;
      legacyFiles++;
      legacyIds.add(id);
      stats.bytes += f.size;
    }
    if (!legacy || r() < importedShare) {
      const cost = (input * 3 + output * 15) / 1e6;
      addSession.run(
        id,
        sentence(r, 4),
        cwd,
        sqlTime(startS),
        sqlTime(endS),
        Math.min(input + output, 200_000),
        4000,
        300,
        input + output,
        input,
        output,
        legacy ? null : cost,
        JSON.stringify({ model_name: 'claude-sonnet-4-5', context_limit: 200000 }),
      );
      for (const m of messages) addMessage.run(m.id, id, m.role, JSON.stringify(m.content), m.created, JSON.stringify(m.metadata));
      if (!legacy) stats.bytes += size;
    }
    stats.sessions++;
    stats.ids.push(id);
  });
  db.exec('COMMIT');
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  stats.bytes = legacyBytes + statSync(dbPath).size;
  stats.files = legacyFiles + 1;
  return stats;
}
