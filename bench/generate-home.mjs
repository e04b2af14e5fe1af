// Writes a synthetic but realistic agent home of a given total size for the benchmarks:
// Claude Code and Codex sessions (subagents, streamed repeated message ids, tool calls, token
// counts) whose file sizes follow a measured real-world profile (3,142 Claude Code files, 1.24 GiB:
// median 105 KB, p90 654 KB, p95 1.5 MB, p99 5.4 MB, max 87 MB). Deterministic for a given seed.
import { mkdirSync, openSync, writeSync, closeSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const generatorVersion = 3;

/** mulberry32: small, fast, deterministic. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Quantiles of the measured profile, interpolated in log space.
const sizeQuantiles = [
  [0, 3_000],
  [0.5, 105_000],
  [0.9, 654_000],
  [0.95, 1_500_000],
  [0.99, 5_400_000],
  [1, 24_000_000],
];

function sampleSize(r) {
  const u = r();
  for (let i = 1; i < sizeQuantiles.length; i++) {
    const [q1, s1] = sizeQuantiles[i];
    const [q0, s0] = sizeQuantiles[i - 1];
    if (u <= q1) {
      const f = (u - q0) / (q1 - q0);
      return Math.round(Math.exp(Math.log(s0) + f * (Math.log(s1) - Math.log(s0))));
    }
  }
  return sizeQuantiles.at(-1)[1];
}

const words = (
  'the a to of and in is it that for on with as this be are by function return const value file test error ' +
  'build index session parser record token cache stream line buffer offset query result config server client ' +
  'request response module import export type interface class method update delete create render component state ' +
  'migration schema column table database commit branch merge review deploy release version package install run'
).split(' ');
const rare = ['zanzibar', 'quixotic', 'flibbertigibbet', 'xylophonic', 'brouhaha'];
const accented = ['café', 'naïve', 'Straße', 'über', 'déjà', 'façade', '日本語', 'résumé', 'Ωmega'];

function sentence(r, n) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const u = r();
    if (u < 0.002) out.push(`${rare[Math.floor(r() * rare.length)]}${Math.floor(r() * 50)}`);
    else if (u < 0.01) out.push(accented[Math.floor(r() * accented.length)]);
    else out.push(words[Math.floor(r() * words.length)]);
  }
  return out.join(' ');
}

function codeBlock(r, bytes) {
  const lines = [];
  let size = 0;
  while (size < bytes) {
    const l = `${'  '.repeat(Math.floor(r() * 4))}${sentence(r, 4 + Math.floor(r() * 8))};`;
    lines.push(l);
    size += l.length + 1;
  }
  return lines.join('\n');
}

function uuid(r) {
  const h = () => Math.floor(r() * 0x10000).toString(16).padStart(4, '0');
  return `${h()}${h()}-${h()}-4${h().slice(1)}-a${h().slice(1)}-${h()}${h()}${h()}`;
}

/** Buffered line writer: one write per MiB. */
class LineFile {
  constructor(path) {
    this.fd = openSync(path, 'w');
    this.parts = [];
    this.pending = 0;
    this.size = 0;
  }
  line(obj) {
    const s = `${JSON.stringify(obj)}\n`;
    this.parts.push(s);
    this.pending += s.length;
    this.size += Buffer.byteLength(s);
    if (this.pending > 1 << 20) this.flush();
  }
  flush() {
    if (this.parts.length > 0) writeSync(this.fd, this.parts.join(''));
    this.parts = [];
    this.pending = 0;
  }
  close() {
    this.flush();
    closeSync(this.fd);
  }
}

function isoAt(base, seconds) {
  return new Date(base + seconds * 1000).toISOString();
}

function outputSize(r) {
  const u = r();
  if (u < 0.6) return 100 + Math.floor(r() * 1500);
  if (u < 0.9) return 2000 + Math.floor(r() * 8000);
  if (u < 0.98) return 10_000 + Math.floor(r() * 40_000);
  return 50_000 + Math.floor(r() * 200_000);
}

/** Writes one Claude Code session of about `target` bytes (plus subagent files). */
function claudeSession(dir, sessionId, target, r, base, cwd, stats) {
  const main = new LineFile(join(dir, `${sessionId}.jsonl`));
  let t = 0;
  let uuidPrev = null;
  let n = 0;
  const common = () => ({ parentUuid: uuidPrev, isSidechain: false, userType: 'external', cwd, sessionId, version: '2.0.14', gitBranch: 'main' });
  const push = (file, obj) => {
    const id = uuid(r);
    file.line({ ...obj, uuid: id, timestamp: isoAt(base, t) });
    uuidPrev = id;
    t += 1 + Math.floor(r() * 20);
  };
  while (main.size < target) {
    const reminder = r() < 0.2 ? `\n<system-reminder>${sentence(r, 30)}</system-reminder>` : '';
    push(main, { ...common(), type: 'user', message: { role: 'user', content: sentence(r, 10 + Math.floor(r() * 40)) + reminder } });
    const steps = 1 + Math.floor(r() * 4);
    for (let s = 0; s < steps && main.size < target; s++) {
      const msgId = `msg_${(n++).toString(36)}${Math.floor(r() * 1e9).toString(36)}`;
      const usage = { input_tokens: 3 + Math.floor(r() * 50), cache_creation_input_tokens: Math.floor(r() * 3000), cache_read_input_tokens: Math.floor(r() * 80_000), output_tokens: 0 };
      const finalOut = 20 + Math.floor(r() * 900);
      const toolId = `toolu_${uuid(r).replace(/-/g, '').slice(0, 24)}`;
      const subagent = r() < 0.03;
      const blocks = [{ type: 'text', text: sentence(r, 20 + Math.floor(r() * 120)) }];
      if (subagent) blocks.push({ type: 'tool_use', id: toolId, name: r() < 0.5 ? 'Task' : 'Agent', input: { description: sentence(r, 4), prompt: sentence(r, 40), subagent_type: 'Explore' } });
      else if (r() < 0.5) blocks.push({ type: 'tool_use', id: toolId, name: 'Bash', input: { command: `rg -n ${words[Math.floor(r() * words.length)]} src`, description: sentence(r, 5) } });
      else if (r() < 0.5) blocks.push({ type: 'tool_use', id: toolId, name: 'Edit', input: { file_path: `${cwd}/src/${words[Math.floor(r() * 40)]}.ts`, old_string: codeBlock(r, 200), new_string: codeBlock(r, 260) } });
      else blocks.push({ type: 'tool_use', id: toolId, name: 'Read', input: { file_path: `${cwd}/src/${words[Math.floor(r() * 40)]}.ts` } });
      // Claude Code streams one message as several lines repeating message.id and a growing usage.
      blocks.forEach((block, i) => {
        const out = i === blocks.length - 1 ? finalOut : Math.floor(finalOut / 3);
        push(main, { ...common(), type: 'assistant', requestId: `req_${msgId}`, message: { id: msgId, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5-20250929', content: [block], stop_reason: null, usage: { ...usage, output_tokens: out } } });
      });
      stats.input += usage.input_tokens;
      stats.output += finalOut;
      stats.cacheRead += usage.cache_read_input_tokens;
      stats.cacheCreate += usage.cache_creation_input_tokens;
      const last = blocks.at(-1);
      if (last.type !== 'tool_use') continue;
      if (subagent) {
        const agentId = `a${uuid(r).replace(/-/g, '').slice(0, 16)}`;
        const subDir = join(dir, sessionId, 'subagents');
        mkdirSync(subDir, { recursive: true });
        writeFileSync(join(subDir, `agent-${agentId}.meta.json`), JSON.stringify({ agentType: 'Explore', description: last.input.description, toolUseId: toolId }));
        const sub = new LineFile(join(subDir, `agent-${agentId}.jsonl`));
        const subTarget = Math.min(400_000, Math.floor(target / 10) + 2000);
        const subCommon = { isSidechain: true, agentId, userType: 'external', cwd, sessionId, version: '2.0.14', gitBranch: 'main' };
        sub.line({ ...subCommon, parentUuid: null, type: 'user', message: { role: 'user', content: last.input.prompt }, uuid: uuid(r), timestamp: isoAt(base, t) });
        let k = 0;
        while (sub.size < subTarget) {
          const sid = `msg_sub${k++}${Math.floor(r() * 1e9).toString(36)}`;
          const tid = `toolu_sub${k}${Math.floor(r() * 1e9).toString(36)}`;
          const su = { input_tokens: 5, cache_creation_input_tokens: 100, cache_read_input_tokens: 2000, output_tokens: 60 };
          sub.line({ ...subCommon, type: 'assistant', message: { id: sid, role: 'assistant', model: 'claude-haiku-4-5', content: [{ type: 'tool_use', id: tid, name: 'Grep', input: { pattern: words[k % words.length] } }], usage: su }, uuid: uuid(r), timestamp: isoAt(base, t) });
          sub.line({ ...subCommon, type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: tid, content: codeBlock(r, outputSize(r)) }] }, uuid: uuid(r), timestamp: isoAt(base, t) });
          t += 2;
        }
        sub.close();
        stats.files++;
        stats.bytes += sub.size;
        push(main, { ...common(), type: 'user', message: { role: 'user', content: [{ tool_use_id: toolId, type: 'tool_result', content: [{ type: 'text', text: sentence(r, 60) }] }] }, toolUseResult: { status: 'completed', agentId, agentType: 'Explore', totalDurationMs: 40_000, totalTokens: 17_000, totalToolUseCount: k } });
      } else {
        const isError = r() < 0.05;
        push(main, { ...common(), type: 'user', message: { role: 'user', content: [{ tool_use_id: toolId, type: 'tool_result', content: codeBlock(r, outputSize(r)), is_error: isError }] }, toolUseResult: { stdout: '', stderr: '', interrupted: false } });
      }
    }
  }
  main.close();
  stats.files++;
  stats.bytes += main.size;
  stats.sessions++;
}

/** Writes one Codex rollout of about `target` bytes (and a spawned agent's rollout now and then). */
function codexSession(dir, threadId, target, r, base, cwd, stats, parent) {
  const stamp = new Date(base).toISOString().slice(0, 19).replace(/:/g, '-');
  const file = new LineFile(join(dir, `rollout-${stamp}-${threadId}.jsonl`));
  let t = 0;
  const at = () => isoAt(base, (t += 1 + Math.floor(r() * 10)));
  const source = parent === undefined ? 'cli' : { subagent: { thread_spawn: { parent_thread_id: parent, depth: 1, agent_nickname: 'Boyle', agent_role: 'explorer' } } };
  file.line({ timestamp: at(), type: 'session_meta', payload: { id: threadId, timestamp: isoAt(base, 0), cwd, originator: 'codex_cli_rs', cli_version: '0.63.0', source, git: { branch: 'main', commit_hash: 'abc123' } } });
  const total = { input_tokens: 0, cached_input_tokens: 0, output_tokens: 0, reasoning_output_tokens: 0, total_tokens: 0 };
  let turn = 0;
  while (file.size < target) {
    file.line({ timestamp: at(), type: 'turn_context', payload: { cwd, approval_policy: 'on-request', sandbox_policy: { mode: 'workspace-write' }, model: 'gpt-5-codex', effort: 'medium', summary: 'auto' } });
    if (turn === 0) file.line({ timestamp: at(), type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: `<environment_context>\n  <cwd>${cwd}</cwd>\n</environment_context>` }] } });
    const ask = sentence(r, 10 + Math.floor(r() * 40));
    file.line({ timestamp: at(), type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: ask }] } });
    file.line({ timestamp: at(), type: 'event_msg', payload: { type: 'user_message', message: ask, images: [] } });
    const steps = 1 + Math.floor(r() * 4);
    for (let s = 0; s < steps && file.size < target; s++) {
      file.line({ timestamp: at(), type: 'response_item', payload: { type: 'reasoning', summary: [{ type: 'summary_text', text: `**${sentence(r, 4)}**` }], content: null, encrypted_content: 'gAAAA'.padEnd(600, 'x') } });
      const callId = `call_${uuid(r).replace(/-/g, '').slice(0, 20)}`;
      if (parent === undefined && r() < 0.02) {
        const child = uuid(r);
        file.line({ timestamp: at(), type: 'response_item', payload: { type: 'function_call', name: 'spawn_agent', arguments: JSON.stringify({ agent_type: 'explorer', message: sentence(r, 12) }), call_id: callId } });
        file.line({ timestamp: at(), type: 'response_item', payload: { type: 'function_call_output', call_id: callId, output: JSON.stringify({ agent_id: child, nickname: 'Boyle' }) } });
        codexSession(dir, child, Math.min(300_000, target / 8 + 2000), r, base + t * 1000, cwd, stats, threadId);
      } else {
        file.line({ timestamp: at(), type: 'response_item', payload: { type: 'function_call', name: 'shell', arguments: JSON.stringify({ command: ['bash', '-lc', `rg -n ${words[Math.floor(r() * words.length)]} src`], workdir: cwd }), call_id: callId } });
        file.line({ timestamp: at(), type: 'response_item', payload: { type: 'function_call_output', call_id: callId, output: JSON.stringify({ output: codeBlock(r, outputSize(r)), metadata: { exit_code: r() < 0.1 ? 1 : 0, duration_seconds: 0.4 } }) } });
      }
      const inc = { input: 2000 + Math.floor(r() * 20_000), cached: 1000 + Math.floor(r() * 10_000), output: 50 + Math.floor(r() * 800), reasoning: Math.floor(r() * 300) };
      total.input_tokens += inc.input + inc.cached;
      total.cached_input_tokens += inc.cached;
      total.output_tokens += inc.output;
      total.reasoning_output_tokens += inc.reasoning;
      total.total_tokens = total.input_tokens + total.output_tokens;
      file.line({ timestamp: at(), type: 'event_msg', payload: { type: 'token_count', info: { total_token_usage: { ...total }, last_token_usage: { input_tokens: inc.input, cached_input_tokens: inc.cached, output_tokens: inc.output, reasoning_output_tokens: inc.reasoning, total_tokens: inc.input + inc.output } }, rate_limits: null } });
    }
    const answer = sentence(r, 30 + Math.floor(r() * 150));
    file.line({ timestamp: at(), type: 'response_item', payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: answer }] } });
    file.line({ timestamp: at(), type: 'event_msg', payload: { type: 'agent_message', message: answer } });
    turn++;
  }
  file.close();
  stats.files++;
  stats.bytes += file.size;
  if (parent === undefined) stats.sessions++;
}

/**
 * Generates `totalBytes` of sessions under `home` (`.claude/projects/…` and `.codex/sessions/…`).
 * One Claude Code file of `bigFileBytes` (default 87 MB) is always included.
 */
export function generateHome(home, totalBytes, { seed = 42, bigFileBytes = 87_000_000, codexShare = 0.25, now = Date.now() } = {}) {
  const r = rng(seed);
  const stats = { claude: { sessions: 0, files: 0, bytes: 0, input: 0, output: 0, cacheRead: 0, cacheCreate: 0 }, codex: { sessions: 0, files: 0, bytes: 0 }, bigFile: null };
  const claudeTarget = totalBytes * (1 - codexShare);
  const codexTarget = totalBytes * codexShare;
  const projects = join(home, '.claude', 'projects');
  let i = 0;
  // Sessions spread over the last ten days so every one is inside a 14-day window.
  const spread = 10 * 86_400_000;
  while (stats.claude.bytes < claudeTarget) {
    const big = i === 0 && bigFileBytes > 0;
    const size = big ? bigFileBytes : Math.min(sampleSize(r), Math.max(3000, claudeTarget - stats.claude.bytes));
    const cwd = `/home/bench/code/project-${i % 40}`;
    const dir = join(projects, cwd.replace(/[^A-Za-z0-9]/g, '-'));
    mkdirSync(dir, { recursive: true });
    const id = uuid(r);
    const base = now - spread + Math.floor(r() * spread * 0.95);
    claudeSession(dir, id, size, r, base, cwd, stats.claude);
    if (big) stats.bigFile = join(dir, `${id}.jsonl`);
    i++;
  }
  let j = 0;
  while (stats.codex.bytes < codexTarget) {
    const size = Math.min(sampleSize(r), Math.max(3000, codexTarget - stats.codex.bytes));
    const base = now - spread + Math.floor(r() * spread * 0.95);
    const d = new Date(base);
    const dir = join(home, '.codex', 'sessions', String(d.getUTCFullYear()), String(d.getUTCMonth() + 1).padStart(2, '0'), String(d.getUTCDate()).padStart(2, '0'));
    mkdirSync(dir, { recursive: true });
    codexSession(dir, uuid(r), size, r, base, `/home/bench/code/project-${j % 40}`, stats.codex, undefined);
    j++;
  }
  return stats;
}

// `node bench/generate-home.mjs <dir> <MiB>` writes a home by hand.
if (import.meta.url === `file://${process.argv[1]}`) {
  const [dir, mib] = process.argv.slice(2);
  if (dir === undefined) {
    console.error('usage: node bench/generate-home.mjs <dir> [MiB]');
    process.exit(2);
  }
  const total = Number(mib ?? 64) * 1024 * 1024;
  const big = total >= 512 * 1024 * 1024 ? 87_000_000 : Math.floor(total / 8);
  const started = Date.now();
  const stats = generateHome(dir, total, { bigFileBytes: big });
  console.log(JSON.stringify({ ...stats, seconds: (Date.now() - started) / 1000 }, null, 2));
}
