// Kimi Code sessions as Kimi Code 1.4 lays them out (research intendant.md §3.4, corpus kimi/):
// `session_index.jsonl`, `sessions/<workdir-key>/session_<uuid>/state.json` and one
// `agents/<agent-id>/wire.jsonl` per agent; an `Agent` tool call launches `agent-N`, whose wire
// opens with the subagent's system-triggered prompt. Occasional `context.undo` and compactions.
import { join } from 'node:path';
import {
  LineFile,
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
  uuid,
  words,
  writeWhole,
} from './common.mjs';

const model = 'kimi-k2.7-code';
const alias = 'moonshot-ai/kimi-k2.7-code';
/** Kimi's bounds: a wire ≤ 64 MiB and ≤ 200,000 records a session; real sessions stay far below. */
const cap = 12_000_000;

function usage(r) {
  return { inputOther: between(r, 200, 12_000), output: between(r, 20, 900), inputCacheRead: between(r, 0, 60_000), inputCacheCreation: 0 };
}

/** Writes one agent's wire until it holds about `target` bytes; returns what the launch needs. */
function writeWire(path, r, o) {
  const w = new LineFile(path);
  let ms = o.startMs;
  const tick = (max = 4000) => (ms += between(r, 5, max));
  const loop = (event) => w.line({ type: 'context.append_loop_event', event, time: tick(50) });
  w.line({ type: 'metadata', protocol_version: '1.4', created_at: ms });
  if (o.agentId === 'main') {
    w.line({
      type: 'config.update',
      profileName: 'agent',
      systemPrompt: 'You are Kimi Code CLI, an interactive general AI agent.',
      subagentNames: ['coder', 'explore', 'plan'],
      time: ms,
    });
    w.line({ type: 'config.update', cwd: o.cwd, modelAlias: alias, thinkingEffort: 'on', time: ms });
  } else {
    w.line({ type: 'config.update', cwd: o.cwd, modelAlias: alias, thinkingEffort: 'on', time: ms });
    w.line({
      type: 'config.update',
      profileName: 'explore',
      systemPrompt: 'You are Kimi Code CLI, running as a read-only explore agent.',
      subagentNames: ['coder', 'explore', 'plan'],
      time: ms,
    });
  }
  w.line({ type: 'tools.set_active_tools', names: ['Read', 'Write', 'Edit', 'Grep', 'Glob', 'Bash', 'Agent', 'TodoList'], time: ms });
  const counters = new Map();
  const callId = (name) => {
    const n = counters.get('all') ?? 0;
    counters.set('all', n + 1);
    return `${name}_${n}`;
  };
  let turn = 0;
  let launched = null;
  let launchTurn = -1;
  let lastWords = '';
  while (w.size < o.target) {
    const origin = o.agentId === 'main' ? { kind: 'user' } : { kind: 'system_trigger', name: 'subagent' };
    const ask = turn === 0 && o.task !== undefined ? o.task : sentence(r, between(r, 8, 50));
    if (turn > 0 && o.agentId !== 'main') break;
    w.line({ type: 'turn.prompt', input: [{ type: 'text', text: ask }], origin, time: tick() });
    w.line({
      type: 'context.append_message',
      message: { role: 'user', content: [{ type: 'text', text: ask }], toolCalls: [], origin },
      time: tick(5),
    });
    const steps = between(r, 1, 6);
    for (let step = 1; step <= steps + 1 && (step === steps + 1 || w.size < o.target); step++) {
      const stepUuid = uuid(r);
      loop({ type: 'step.begin', uuid: stepUuid, turnId: String(turn), step });
      w.line({
        type: 'llm.request',
        kind: 'loop',
        provider: 'kimi',
        model,
        modelAlias: alias,
        thinkingEffort: 'on',
        maxTokens: 262144,
        messageCount: step * 2 + turn,
        turnStep: `${turn}.${step}`,
        time: tick(20),
      });
      loop({
        type: 'content.part',
        uuid: uuid(r),
        turnId: String(turn),
        step,
        stepUuid,
        part: { type: 'think', think: sentence(r, between(r, 10, 80)) },
      });
      const final = step === steps + 1;
      if (final) {
        lastWords = sentence(r, between(r, 20, 150));
        loop({ type: 'content.part', uuid: uuid(r), turnId: String(turn), step, stepUuid, part: { type: 'text', text: lastWords } });
      } else if (o.agentId === 'main' && o.launch !== undefined && launched === null && r() < 0.3) {
        const id = callId('Agent');
        const args = { description: sentence(r, 5), subagent_type: 'explore', prompt: sentence(r, 40) };
        loop({
          type: 'tool.call',
          uuid: id,
          turnId: String(turn),
          step,
          stepUuid,
          toolCallId: id,
          name: 'Agent',
          args,
          description: `Launching explore agent: ${args.description}`,
        });
        const child = o.launch(args.prompt, ms);
        ms = Math.max(ms, child.endMs);
        loop({
          type: 'tool.result',
          parentUuid: id,
          toolCallId: id,
          result: {
            output: `agent_id: ${child.agentId}\nactual_subagent_type: explore\nstatus: completed\n\n[summary]\n${child.lastWords}`,
          },
        });
        launched = child.agentId;
        launchTurn = turn;
      } else {
        const tool = pick(r, ['Bash', 'Bash', 'Read', 'Grep', 'Edit']);
        const id = callId(tool);
        const file = `${o.cwd}/src/${pick(r, words)}.ts`;
        const args =
          tool === 'Bash'
            ? { command: `rg -n ${pick(r, words)} src` }
            : tool === 'Read'
              ? { path: file }
              : tool === 'Grep'
                ? { pattern: pick(r, words), path: o.cwd }
                : { path: file, old_string: codeBlock(r, 160), new_string: codeBlock(r, 200) };
        loop({
          type: 'tool.call',
          uuid: id,
          turnId: String(turn),
          step,
          stepUuid,
          toolCallId: id,
          name: tool,
          args,
          description: `Running: ${tool}`,
        });
        const failed = tool === 'Bash' && r() < 0.08;
        const output = codeBlock(r, outputSize(r)) + (failed ? '\nCommand failed with exit code: 1.' : '');
        loop({ type: 'tool.result', parentUuid: id, toolCallId: id, result: failed ? { output, isError: true } : { output } });
      }
      const u = usage(r);
      countTokens(o.stats, u.inputOther, u.output, u.inputCacheRead, u.inputCacheCreation);
      loop({
        type: 'step.end',
        uuid: stepUuid,
        turnId: String(turn),
        step,
        usage: u,
        finishReason: final ? 'end_turn' : 'tool_use',
        messageId: `chatcmpl-${hex(r, 24)}`,
      });
      w.line({ type: 'usage.record', model: alias, usage: u, usageScope: 'turn', time: ms, agentId: o.agentId });
    }
    turn++;
    // A person takes the last turn back now and then, or the context is compacted.
    // (Never the turn that launched a subagent: the child would go with it, tokens and all.)
    if (o.agentId === 'main' && turn > 1 && launchTurn !== turn - 1 && r() < 0.04) w.line({ type: 'context.undo', count: 1, time: tick() });
    else if (o.agentId === 'main' && r() < 0.02) {
      w.line({ type: 'full_compaction.begin', source: 'auto', time: tick() });
      w.line({
        type: 'context.apply_compaction',
        summary: sentence(r, 60),
        compactedCount: turn * 4,
        tokensBefore: 150_000,
        tokensAfter: 4000,
        time: tick(50),
      });
      w.line({ type: 'full_compaction.complete', time: tick(50) });
    }
  }
  w.close();
  return { size: w.size, endMs: ms, lastWords, launched };
}

/** Writes Kimi Code sessions under `<home>/.kimi-code` until `target` bytes. */
export function generateKimi(home, target, r, now) {
  const root = join(home, '.kimi-code');
  const stats = newStats();
  const index = [];
  fillTo(stats, target, r, cap, (size, i) => {
    const cwd = projectCwd(i);
    const sessionId = `session_${uuid(r)}`;
    const dir = join(root, 'sessions', `wd_${cwd.split('/').at(-1)}_${hex(r, 12)}`, sessionId);
    const startMs = now - 10 * 86_400_000 + Math.floor(r() * 9.5 * 86_400_000);
    const agents = { main: { homedir: join(dir, 'agents', 'main'), type: 'main', parentAgentId: null } };
    let children = 0;
    const launch = (prompt, atMs) => {
      const agentId = `agent-${children++}`;
      const wire = writeWire(join(dir, 'agents', agentId, 'wire.jsonl'), r, {
        agentId,
        cwd,
        startMs: atMs,
        target: Math.min(400_000, size / 6 + 3000),
        task: prompt,
        stats,
      });
      agents[agentId] = { homedir: join(dir, 'agents', agentId), type: 'sub', parentAgentId: 'main' };
      stats.files++;
      stats.bytes += wire.size;
      return { agentId, lastWords: wire.lastWords, endMs: wire.endMs };
    };
    const main = writeWire(join(dir, 'agents', 'main', 'wire.jsonl'), r, {
      agentId: 'main',
      cwd,
      startMs,
      target: size,
      launch: r() < 0.5 ? launch : undefined,
      stats,
    });
    const state = {
      createdAt: new Date(startMs).toISOString(),
      updatedAt: new Date(main.endMs).toISOString(),
      title: sentence(r, 4),
      isCustomTitle: false,
      agents,
      custom: {},
      workDir: cwd,
      lastPrompt: sentence(r, 8),
    };
    const stateBytes = writeWhole(join(dir, 'state.json'), JSON.stringify(state, null, 2));
    stats.files += 2;
    stats.bytes += main.size + stateBytes;
    stats.sessions++;
    stats.ids.push(sessionId);
    index.push(JSON.stringify({ sessionId, sessionDir: dir, workDir: cwd }));
  });
  if (index.length > 0) {
    stats.bytes += writeWhole(join(root, 'session_index.jsonl'), `${index.join('\n')}\n`);
    stats.files++;
  }
  return stats;
}
