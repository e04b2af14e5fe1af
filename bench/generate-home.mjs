// Writes a synthetic but realistic agent home of a given total size for the benchmarks:
// Claude Code and Codex sessions (subagents, streamed repeated message ids, tool calls, token
// counts) whose file sizes follow a measured real-world profile (3,142 Claude Code files, 1.24 GiB:
// median 105 KB, p90 654 KB, p95 1.5 MB, p99 5.4 MB, max 87 MB), and a modest share of Kimi Code,
// Pi, Intendant, Gemini CLI and OpenCode sessions (bench/gen/). Deterministic for a given seed.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LineFile, codeBlock, isoAt, outputSize, rng, sampleSize, sentence, uuid, words } from './gen/common.mjs';
import { generateAider } from './gen/aider.mjs';
import { generateCline, generateRooCode } from './gen/cline.mjs';
import { generateGemini } from './gen/gemini.mjs';
import { generateIntendant } from './gen/intendant.mjs';
import { generateKimi } from './gen/kimi.mjs';
import { generateOpencode } from './gen/opencode.mjs';
import { generatePi } from './gen/pi.mjs';
import { generateQwen } from './gen/qwen.mjs';
import { generateCrush } from './gen/crush.mjs';
import { generateCopilot } from './gen/copilot.mjs';
import { generateDroid } from './gen/droid.mjs';
import { generateGoose } from './gen/goose.mjs';
import { generateCursor } from './gen/cursor.mjs';

export const generatorVersion = 11;

/** Share of the home each of the five other agents gets; Claude Code and Codex share the rest. */
export const otherShares = {
  kimi: 0.06,
  pi: 0.06,
  intendant: 0.06,
  gemini: 0.06,
  opencode: 0.06,
  cline: 0.03,
  roo_code: 0.03,
  crush: 0.03,
  goose: 0.03,
  aider: 0.03,
  cursor: 0.02,
};
const otherGenerators = {
  kimi: generateKimi,
  pi: generatePi,
  intendant: generateIntendant,
  gemini: generateGemini,
  opencode: generateOpencode,
  cline: generateCline,
  roo_code: generateRooCode,
  crush: generateCrush,
  goose: generateGoose,
  aider: generateAider,
  cursor: generateCursor,
};
otherShares.qwen = 0.03;
otherGenerators.qwen = generateQwen;
otherShares.copilot = 0.03;
otherGenerators.copilot = generateCopilot;
otherShares.droid = 0.03;
otherGenerators.droid = generateDroid;

/** Writes one Claude Code session of about `target` bytes (plus subagent files). */
function claudeSession(dir, sessionId, target, r, base, cwd, stats) {
  const main = new LineFile(join(dir, `${sessionId}.jsonl`));
  let t = 0;
  let uuidPrev = null;
  let n = 0;
  const common = () => ({
    parentUuid: uuidPrev,
    isSidechain: false,
    userType: 'external',
    cwd,
    sessionId,
    version: '2.0.14',
    gitBranch: 'main',
  });
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
      const usage = {
        input_tokens: 3 + Math.floor(r() * 50),
        cache_creation_input_tokens: Math.floor(r() * 3000),
        cache_read_input_tokens: Math.floor(r() * 80_000),
        output_tokens: 0,
      };
      const finalOut = 20 + Math.floor(r() * 900);
      const toolId = `toolu_${uuid(r).replace(/-/g, '').slice(0, 24)}`;
      const subagent = r() < 0.03;
      const blocks = [{ type: 'text', text: sentence(r, 20 + Math.floor(r() * 120)) }];
      if (subagent)
        blocks.push({
          type: 'tool_use',
          id: toolId,
          name: r() < 0.5 ? 'Task' : 'Agent',
          input: { description: sentence(r, 4), prompt: sentence(r, 40), subagent_type: 'Explore' },
        });
      else if (r() < 0.5)
        blocks.push({
          type: 'tool_use',
          id: toolId,
          name: 'Bash',
          input: { command: `rg -n ${words[Math.floor(r() * words.length)]} src`, description: sentence(r, 5) },
        });
      // biome-ignore lint/suspicious/noDuplicateElseIf: r() draws a new number at each test
      else if (r() < 0.5)
        blocks.push({
          type: 'tool_use',
          id: toolId,
          name: 'Edit',
          input: {
            file_path: `${cwd}/src/${words[Math.floor(r() * 40)]}.ts`,
            old_string: codeBlock(r, 200),
            new_string: codeBlock(r, 260),
          },
        });
      else
        blocks.push({ type: 'tool_use', id: toolId, name: 'Read', input: { file_path: `${cwd}/src/${words[Math.floor(r() * 40)]}.ts` } });
      // Claude Code streams one message as several lines repeating message.id and a growing usage.
      blocks.forEach((block, i) => {
        const out = i === blocks.length - 1 ? finalOut : Math.floor(finalOut / 3);
        push(main, {
          ...common(),
          type: 'assistant',
          requestId: `req_${msgId}`,
          message: {
            id: msgId,
            type: 'message',
            role: 'assistant',
            model: 'claude-sonnet-4-5-20250929',
            content: [block],
            stop_reason: null,
            usage: { ...usage, output_tokens: out },
          },
        });
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
        writeFileSync(
          join(subDir, `agent-${agentId}.meta.json`),
          JSON.stringify({ agentType: 'Explore', description: last.input.description, toolUseId: toolId }),
        );
        const sub = new LineFile(join(subDir, `agent-${agentId}.jsonl`));
        const subTarget = Math.min(400_000, Math.floor(target / 10) + 2000);
        const subCommon = { isSidechain: true, agentId, userType: 'external', cwd, sessionId, version: '2.0.14', gitBranch: 'main' };
        sub.line({
          ...subCommon,
          parentUuid: null,
          type: 'user',
          message: { role: 'user', content: last.input.prompt },
          uuid: uuid(r),
          timestamp: isoAt(base, t),
        });
        let k = 0;
        while (sub.size < subTarget) {
          const sid = `msg_sub${k++}${Math.floor(r() * 1e9).toString(36)}`;
          const tid = `toolu_sub${k}${Math.floor(r() * 1e9).toString(36)}`;
          const su = { input_tokens: 5, cache_creation_input_tokens: 100, cache_read_input_tokens: 2000, output_tokens: 60 };
          sub.line({
            ...subCommon,
            type: 'assistant',
            message: {
              id: sid,
              role: 'assistant',
              model: 'claude-haiku-4-5',
              content: [{ type: 'tool_use', id: tid, name: 'Grep', input: { pattern: words[k % words.length] } }],
              usage: su,
            },
            uuid: uuid(r),
            timestamp: isoAt(base, t),
          });
          sub.line({
            ...subCommon,
            type: 'user',
            message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: tid, content: codeBlock(r, outputSize(r)) }] },
            uuid: uuid(r),
            timestamp: isoAt(base, t),
          });
          t += 2;
        }
        sub.close();
        stats.files++;
        stats.bytes += sub.size;
        push(main, {
          ...common(),
          type: 'user',
          message: {
            role: 'user',
            content: [{ tool_use_id: toolId, type: 'tool_result', content: [{ type: 'text', text: sentence(r, 60) }] }],
          },
          toolUseResult: {
            status: 'completed',
            agentId,
            agentType: 'Explore',
            totalDurationMs: 40_000,
            totalTokens: 17_000,
            totalToolUseCount: k,
          },
        });
      } else {
        const isError = r() < 0.05;
        push(main, {
          ...common(),
          type: 'user',
          message: {
            role: 'user',
            content: [{ tool_use_id: toolId, type: 'tool_result', content: codeBlock(r, outputSize(r)), is_error: isError }],
          },
          toolUseResult: { stdout: '', stderr: '', interrupted: false },
        });
      }
    }
  }
  main.close();
  stats.files++;
  stats.bytes += main.size;
  stats.sessions++;
  stats.ids.push(sessionId);
}

/** Writes one Codex rollout of about `target` bytes (and a spawned agent's rollout now and then). */
function codexSession(dir, threadId, target, r, base, cwd, stats, parent) {
  const stamp = new Date(base).toISOString().slice(0, 19).replace(/:/g, '-');
  const file = new LineFile(join(dir, `rollout-${stamp}-${threadId}.jsonl`));
  let t = 0;
  const at = () => isoAt(base, (t += 1 + Math.floor(r() * 10)));
  const source =
    parent === undefined
      ? 'cli'
      : { subagent: { thread_spawn: { parent_thread_id: parent, depth: 1, agent_nickname: 'Boyle', agent_role: 'explorer' } } };
  file.line({
    timestamp: at(),
    type: 'session_meta',
    payload: {
      id: threadId,
      timestamp: isoAt(base, 0),
      cwd,
      originator: 'codex_cli_rs',
      cli_version: '0.63.0',
      source,
      git: { branch: 'main', commit_hash: 'abc123' },
    },
  });
  const total = { input_tokens: 0, cached_input_tokens: 0, output_tokens: 0, reasoning_output_tokens: 0, total_tokens: 0 };
  let turn = 0;
  while (file.size < target) {
    file.line({
      timestamp: at(),
      type: 'turn_context',
      payload: {
        cwd,
        approval_policy: 'on-request',
        sandbox_policy: { mode: 'workspace-write' },
        model: 'gpt-5-codex',
        effort: 'medium',
        summary: 'auto',
      },
    });
    if (turn === 0)
      file.line({
        timestamp: at(),
        type: 'response_item',
        payload: {
          type: 'message',
          role: 'user',
          content: [{ type: 'input_text', text: `<environment_context>\n  <cwd>${cwd}</cwd>\n</environment_context>` }],
        },
      });
    const ask = sentence(r, 10 + Math.floor(r() * 40));
    file.line({
      timestamp: at(),
      type: 'response_item',
      payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: ask }] },
    });
    file.line({ timestamp: at(), type: 'event_msg', payload: { type: 'user_message', message: ask, images: [] } });
    const steps = 1 + Math.floor(r() * 4);
    for (let s = 0; s < steps && file.size < target; s++) {
      file.line({
        timestamp: at(),
        type: 'response_item',
        payload: {
          type: 'reasoning',
          summary: [{ type: 'summary_text', text: `**${sentence(r, 4)}**` }],
          content: null,
          encrypted_content: 'gAAAA'.padEnd(600, 'x'),
        },
      });
      const callId = `call_${uuid(r).replace(/-/g, '').slice(0, 20)}`;
      if (parent === undefined && r() < 0.02) {
        const child = uuid(r);
        file.line({
          timestamp: at(),
          type: 'response_item',
          payload: {
            type: 'function_call',
            name: 'spawn_agent',
            arguments: JSON.stringify({ agent_type: 'explorer', message: sentence(r, 12) }),
            call_id: callId,
          },
        });
        file.line({
          timestamp: at(),
          type: 'response_item',
          payload: { type: 'function_call_output', call_id: callId, output: JSON.stringify({ agent_id: child, nickname: 'Boyle' }) },
        });
        codexSession(dir, child, Math.min(300_000, target / 8 + 2000), r, base + t * 1000, cwd, stats, threadId);
      } else {
        file.line({
          timestamp: at(),
          type: 'response_item',
          payload: {
            type: 'function_call',
            name: 'shell',
            arguments: JSON.stringify({ command: ['bash', '-lc', `rg -n ${words[Math.floor(r() * words.length)]} src`], workdir: cwd }),
            call_id: callId,
          },
        });
        file.line({
          timestamp: at(),
          type: 'response_item',
          payload: {
            type: 'function_call_output',
            call_id: callId,
            output: JSON.stringify({
              output: codeBlock(r, outputSize(r)),
              metadata: { exit_code: r() < 0.1 ? 1 : 0, duration_seconds: 0.4 },
            }),
          },
        });
      }
      const inc = {
        input: 2000 + Math.floor(r() * 20_000),
        cached: 1000 + Math.floor(r() * 10_000),
        output: 50 + Math.floor(r() * 800),
        reasoning: Math.floor(r() * 300),
      };
      total.input_tokens += inc.input + inc.cached;
      total.cached_input_tokens += inc.cached;
      total.output_tokens += inc.output;
      total.reasoning_output_tokens += inc.reasoning;
      total.total_tokens = total.input_tokens + total.output_tokens;
      file.line({
        timestamp: at(),
        type: 'event_msg',
        payload: {
          type: 'token_count',
          info: {
            total_token_usage: { ...total },
            // As real rollouts write it: the request's input includes its cached part, so each
            // last_token_usage is exactly the step from one total_token_usage to the next.
            last_token_usage: {
              input_tokens: inc.input + inc.cached,
              cached_input_tokens: inc.cached,
              output_tokens: inc.output,
              reasoning_output_tokens: inc.reasoning,
              total_tokens: inc.input + inc.cached + inc.output,
            },
          },
          rate_limits: null,
        },
      });
    }
    const answer = sentence(r, 30 + Math.floor(r() * 150));
    file.line({
      timestamp: at(),
      type: 'response_item',
      payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: answer }] },
    });
    file.line({ timestamp: at(), type: 'event_msg', payload: { type: 'agent_message', message: answer } });
    turn++;
  }
  file.close();
  stats.files++;
  stats.bytes += file.size;
  if (parent === undefined) {
    stats.sessions++;
    stats.ids.push(threadId);
  }
}

/**
 * Generates `totalBytes` of sessions under `home`: every agent agentlog reads, each in its own
 * layout (`.claude/projects/…`, `.codex/sessions/…`, `.kimi-code`, `.pi/agent`, `.intendant`,
 * `.gemini`, `.local/share/opencode`). The five newer agents get `shares` of the bytes each; Claude
 * Code and Codex the rest, split by `codexShare`. One Claude Code file of `bigFileBytes` (default
 * 87 MB) is always included. `stats.<agent>.ids` are the session ids `scan` must list, each once.
 */
export function generateHome(
  home,
  totalBytes,
  { seed = 42, bigFileBytes = 87_000_000, codexShare = 0.25, shares = otherShares, now = Date.now() } = {},
) {
  const r = rng(seed);
  const stats = {
    claude: { sessions: 0, files: 0, bytes: 0, input: 0, output: 0, cacheRead: 0, cacheCreate: 0, ids: [] },
    codex: { sessions: 0, files: 0, bytes: 0, ids: [] },
    bigFile: null,
  };
  const otherTotal = Object.values(shares).reduce((a, b) => a + b, 0);
  const claudeTarget = totalBytes * (1 - otherTotal) * (1 - codexShare);
  const codexTarget = totalBytes * (1 - otherTotal) * codexShare;
  const projects = join(home, '.claude', 'projects');
  // Each newer agent draws from its own stream (seed + 1000 × its place in `shares`), so one
  // generator's change leaves the others' files alone, and any can be generated first.
  const streams = Object.keys(shares).map((agent, n) => [agent, rng(seed + 1000 * (n + 1))]);
  const generate = (agent, stream, cwds) =>
    shares[agent] > 0
      ? otherGenerators[agent](home, totalBytes * shares[agent], stream, now, cwds)
      : { sessions: 0, files: 0, bytes: 0, ids: [] };
  // Aider's histories lie in repositories that a scan knows only from other agents' sessions: the
  // first Droid sessions run in them, as a person's would, so a whole-home scan finds them. (Droid,
  // not Claude Code: its files draw from a stream of their own, so the rest of the home is as it was.)
  const aiderStream = streams.find(([agent]) => agent === 'aider');
  const aider = aiderStream === undefined ? undefined : generate('aider', aiderStream[1]);
  const repos = aider?.projects ?? [];
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
    const dir = join(
      home,
      '.codex',
      'sessions',
      String(d.getUTCFullYear()),
      String(d.getUTCMonth() + 1).padStart(2, '0'),
      String(d.getUTCDate()).padStart(2, '0'),
    );
    mkdirSync(dir, { recursive: true });
    codexSession(dir, uuid(r), size, r, base, `/home/bench/code/project-${j % 40}`, stats.codex, undefined);
    j++;
  }
  for (const [agent, stream] of streams)
    stats[agent] = agent === 'aider' && aider !== undefined ? aider : generate(agent, stream, agent === 'droid' ? repos : undefined);
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
