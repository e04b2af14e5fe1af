// Intendant sessions as its native logger writes them (research intendant.md §1): `logs/<uuid>/`
// with a pretty `session_meta.json`, the `session.jsonl` spine (one LogEvent per line, `ts` + `ts_ms`),
// and `turns/` sidecars appended with a "\n" separator and referenced by byte span: model text,
// reasoning, the runtime command batch (`turn_NNN_agent_in.json`) and its output. User text rides the
// canonical `conversation_message` lane; a delegated child session gets its own folder, linked by a
// `session_relationship` row and launched by a runtime command that names it.
import { appendFileSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  LineFile,
  between,
  codeBlock,
  countTokens,
  fillTo,
  newStats,
  outputSize,
  pick,
  projectCwd,
  sentence,
  timeOfDay,
  uuid,
  words,
} from './common.mjs';

const cap = 16_000_000;
const models = ['claude-sonnet-4-5', 'gpt-5-codex'];

const pad3 = (n) => String(n).padStart(3, '0');

class SessionWriter {
  constructor(dir, id, r, startMs, stats) {
    this.stats = stats;
    this.dir = dir;
    this.id = id;
    this.r = r;
    this.ms = startMs;
    this.seq = 1;
    this.turn = 0;
    this.bytes = 0;
    this.files = new Set();
    mkdirSync(join(dir, 'turns'), { recursive: true });
    this.spine = new LineFile(join(dir, 'session.jsonl'));
  }

  tick(max = 8000) {
    return (this.ms += between(this.r, 5, max));
  }

  row(event, fields = {}, turn = this.turn) {
    const ms = this.tick(400);
    const line = { ts: timeOfDay(ms), ts_ms: ms };
    if (turn > 0) line.turn = turn;
    this.spine.line({ ...line, event, level: 'info', ...fields });
  }

  /** Appends to a sidecar the way the logger does; returns the span of the content. */
  sidecar(rel, content) {
    const path = join(this.dir, rel);
    let size = 0;
    try {
      size = statSync(path).size;
    } catch {
      size = 0;
    }
    const sep = size > 0 ? '\n' : '';
    appendFileSync(path, sep + content);
    this.files.add(rel);
    this.bytes += Buffer.byteLength(sep + content);
    return { file: rel, offset: size + sep.length, len: Buffer.byteLength(content) };
  }

  user(text, provenance) {
    this.row('conversation_message', {
      message: text.slice(0, 200),
      data: { message_id: uuid(this.r), message_seq: ++this.seq, provenance, role: 'user', text },
    });
    return this.seq;
  }

  assistant(text) {
    const r = this.r;
    const span = this.sidecar(`turns/turn_${pad3(this.turn)}_model.txt`, text);
    const prompt = between(r, 2000, 40_000);
    const completion = between(r, 20, 1500);
    // `prompt` includes its cached part (`total` = prompt + completion), so `cached` ≤ `prompt`; the
    // record counts that part once, as a cache read.
    const tokens = { prompt, completion, cached: between(r, 0, prompt), cache_creation: between(r, 0, 2000) };
    tokens.total = tokens.prompt + tokens.completion;
    countTokens(this.stats, tokens.prompt - tokens.cached, tokens.completion, tokens.cached, tokens.cache_creation);
    this.row('model_response', {
      message: text.slice(0, 200),
      data: { content_length: span.len, model_bytes: span.len, model_offset: span.offset, tokens },
      file: span.file,
    });
    this.row('conversation_message', {
      message: text.slice(0, 200),
      data: {
        message_id: uuid(r),
        message_seq: ++this.seq,
        model_bytes: span.len,
        model_offset: span.offset,
        provenance: 'assistant',
        role: 'assistant',
      },
      file: span.file,
    });
  }

  reasoning(text) {
    const span = this.sidecar(`turns/turn_${pad3(this.turn)}_reasoning.txt`, text);
    this.row('reasoning', {
      message: text.slice(0, 120),
      data: { has_summary: true, has_full_content: true, full_content_length: span.len },
      file: span.file,
    });
  }

  /** One runtime batch: the command file, its row, then the runtime's protocol lines as output. */
  commands(commands, results) {
    const rel = `turns/turn_${pad3(this.turn)}_agent_in.json`;
    const doc = JSON.stringify({ commands }, null, 2);
    writeFileSync(join(this.dir, rel), doc);
    this.files.add(rel);
    this.bytes += Buffer.byteLength(doc);
    const functions = commands.map((c) => c.function);
    this.row('agent_input', {
      message: `Commands: ${functions.join(', ')}`,
      data: { functions, json_length: JSON.stringify({ commands }).length },
      file: rel,
    });
    const stdout = results
      .map((res, i) => JSON.stringify({ type: 'result', nonce: commands[i].nonce, data: JSON.stringify(res) }))
      .join('\n');
    const out = this.sidecar(`turns/turn_${pad3(this.turn)}_stdout.txt`, stdout);
    const data = { stdout_length: out.len, stderr_length: 0, stdout_offset: out.offset, stdout_bytes: out.len };
    this.row('agent_output', { message: stdout.slice(0, 200), data, file: out.file });
    this.seq += commands.length;
  }

  close() {
    this.spine.close();
    this.bytes += this.spine.size;
    return { bytes: this.bytes, files: this.files.size + 1 };
  }
}

function writeMeta(dir, meta) {
  const text = JSON.stringify(meta, null, 2);
  writeFileSync(join(dir, 'session_meta.json'), text);
  return Buffer.byteLength(text);
}

function naive(ms) {
  return new Date(ms).toISOString().slice(0, 19);
}

/**
 * Writes one session folder of about `target` bytes. `spawn(task, atMs)` writes a child session and
 * returns its id and end time, or is undefined for a session that delegates nothing.
 */
function writeSession(logs, id, o, r) {
  const dir = join(logs, id);
  const s = new SessionWriter(dir, id, r, o.startMs, o.stats);
  let model = pick(r, models);
  s.row('session_start', { message: `Session started at ${naive(o.startMs).replace('T', ' ')}` }, 0);
  s.spine.line({ ts: timeOfDay(s.ms), ts_ms: s.ms, event: 'debug', level: 'debug', message: `Model: ${model}` });
  let roundStartSeq = s.user(o.task, 'task');
  let rounds = 1;
  let spawned = false;
  let spawnRound = 0;
  let nonce = 0;
  while (true) {
    s.turn++;
    s.row('turn_start', { data: { budget_pct: Math.min(99, s.turn), remaining_tokens: 200_000 - s.turn * 100 } });
    if (r() < 0.6) s.reasoning(sentence(r, between(r, 15, 90)));
    const done = s.bytes + s.spine.size >= o.target;
    const ends = done || r() < 0.25;
    s.assistant(sentence(r, between(r, 15, ends ? 160 : 60)));
    if (!ends) {
      const commands = [];
      const results = [];
      const n = between(r, 1, 4);
      let linked = null;
      for (let k = 0; k < n; k++) {
        const kind = pick(r, ['exec', 'exec', 'edit', 'read']);
        nonce++;
        if (o.spawn !== undefined && !spawned && r() < 0.15) {
          const child = o.spawn(sentence(r, 20), s.ms);
          spawned = true;
          spawnRound = rounds;
          commands.push({ function: 'execAsAgent', nonce, command: `intendant ctl spawn --session ${child.id} research` });
          results.push({ exit_code: 0, stdout: `spawned ${child.id}` });
          s.ms = Math.max(s.ms, child.endMs);
          linked = child.id;
        } else if (kind === 'exec') {
          const failed = r() < 0.08;
          commands.push({ function: 'execAsAgent', nonce, command: `rg -n ${pick(r, words)} src` });
          results.push({ exit_code: failed ? 1 : 0, stdout: codeBlock(r, outputSize(r)), stderr: failed ? sentence(r, 8) : '' });
        } else if (kind === 'edit') {
          commands.push({
            function: 'editFile',
            nonce,
            file_path: `${o.cwd}/src/${pick(r, words)}.ts`,
            operation: 'replace',
            match_content: codeBlock(r, 120),
            content: codeBlock(r, 200),
          });
          results.push({ replacements: 1 });
        } else {
          commands.push({ function: 'readFile', nonce, path: `${o.cwd}/src/${pick(r, words)}.ts` });
          results.push({ content: codeBlock(r, outputSize(r)) });
        }
      }
      s.commands(commands, results);
      // The relationship row follows the batch whose command launched the child.
      if (linked !== null)
        s.row(
          'session_relationship',
          {
            message: `Session relationship: ${id} -> ${linked} (subagent)`,
            data: { parent_session_id: id, child_session_id: linked, relationship: 'subagent', ephemeral: false },
          },
          0,
        );
      continue;
    }
    s.row('round_complete', { data: { round: rounds } });
    if (done) break;
    // A rewind now and then takes the round back to just after its ask (never a round that
    // delegated: the reader drops a rewound child with its tokens, a rule the bench leaves aside).
    if (r() < 0.05 && spawnRound !== rounds) {
      const at = s.tick(200);
      s.row('conversation_rewound', {
        message: `Conversation rewound (tail_rollback): messages after seq ${roundStartSeq} superseded`,
        data: { cut_after_seq: roundStartSeq, kind: 'tail_rollback', superseded_at_ms: at },
      });
    }
    if (r() < 0.05) {
      model = model === models[0] ? models[1] : models[0];
      s.spine.line({ ts: timeOfDay(s.ms), ts_ms: s.ms, event: 'debug', level: 'debug', message: `Model: ${model}` });
    }
    rounds++;
    roundStartSeq = s.user(sentence(r, between(r, 8, 50)), pick(r, ['follow_up', 'follow_up', 'steer']));
  }
  const written = s.close();
  const meta = {
    session_id: id,
    created_at: naive(o.startMs),
    created_at_ms: o.startMs,
    project_root: o.cwd,
    task: o.task,
    status: 'completed',
    last_turn: s.turn,
    rounds,
  };
  if (o.child) meta.role = 'research';
  else if (r() < 0.3)
    meta.worktree = { branch: `intendant/${pick(r, words)}-${pick(r, words)}`, path: `${o.cwd}-wt`, base_root: o.cwd, base_branch: 'main' };
  if (!o.child && r() < 0.2) meta.name = sentence(r, 3);
  return { bytes: written.bytes + writeMeta(dir, meta), files: written.files + 1, endMs: s.ms };
}

/** Writes Intendant sessions under `<home>/.intendant/logs` until `target` bytes. */
export function generateIntendant(home, target, r, now) {
  const logs = join(home, '.intendant', 'logs');
  const stats = newStats();
  fillTo(stats, target, r, cap, (size, i) => {
    const cwd = projectCwd(i);
    const id = uuid(r);
    const startMs = now - 10 * 86_400_000 + Math.floor(r() * 9.5 * 86_400_000);
    const spawn = (task, atMs) => {
      const child = uuid(r);
      const w = writeSession(
        logs,
        child,
        { cwd, startMs: atMs + 50, target: Math.min(300_000, size / 6 + 3000), task, child: true, stats },
        r,
      );
      stats.bytes += w.bytes;
      stats.files += w.files;
      return { id: child, startMs: atMs + 50, endMs: w.endMs };
    };
    const w = writeSession(
      logs,
      id,
      { cwd, startMs, target: size, task: sentence(r, between(r, 8, 40)), spawn: r() < 0.4 ? spawn : undefined, stats },
      r,
    );
    stats.bytes += w.bytes;
    stats.files += w.files;
    stats.sessions++;
    stats.ids.push(id);
  });
  return stats;
}
