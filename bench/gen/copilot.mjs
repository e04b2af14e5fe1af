// GitHub Copilot CLI sessions (event schema: github/copilot-sdk nodejs/src/generated/session-events.ts):
// `.copilot/session-state/<session id>/events.jsonl` beside a `workspace.yaml`, one persisted event a
// line chained by `parentId` (ephemeral deltas and `assistant.usage` are never written). Sessions run
// tools, sometimes a `task` sub-agent whose events carry its `agentId`, sometimes compact, and some are
// resumed; every process lifetime ends with `session.shutdown` stating its per-model usage.
import { writeFileSync } from 'node:fs';
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
  uuid,
  words,
} from './common.mjs';

const cap = 16_000_000;
const models = ['claude-sonnet-4.5', 'gpt-5.1'];

function writeSession(dir, id, cwd, startMs, target, r, stats) {
  const f = new LineFile(join(dir, 'events.jsonl'));
  let ms = startMs;
  let last = null;
  const at = () => new Date((ms += between(r, 200, 20_000))).toISOString();
  const ev = (type, data, agentId) => {
    const e = { type, data, id: uuid(r), timestamp: at(), parentId: last, ...(agentId === undefined ? {} : { agentId }) };
    f.line(e);
    last = e.id;
  };
  let usage = {};
  const spend = (model) => {
    const u = (usage[model] ??= { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 });
    const cached = between(r, 0, 60_000);
    u.inputTokens += cached + between(r, 500, 20_000);
    u.cacheReadTokens += cached;
    u.cacheWriteTokens += between(r, 0, 2000);
    u.outputTokens += between(r, 20, 1200);
  };
  const shutdown = () => {
    const modelMetrics = {};
    for (const [model, u] of Object.entries(usage)) {
      modelMetrics[model] = { requests: { count: 1, cost: 1 }, usage: u };
      countTokens(stats, u.inputTokens - u.cacheReadTokens, u.outputTokens, u.cacheReadTokens, u.cacheWriteTokens);
    }
    ev('session.shutdown', {
      shutdownType: 'routine',
      totalPremiumRequests: 1,
      totalApiDurationMs: 1000,
      sessionStartTime: startMs,
      codeChanges: { linesAdded: 0, linesRemoved: 0, filesModified: [] },
      modelMetrics,
    });
    usage = {};
  };
  const model = pick(r, models);
  ev('session.start', {
    sessionId: id,
    version: 1,
    producer: 'copilot-agent',
    copilotVersion: '0.0.410',
    startTime: new Date(ms).toISOString(),
    selectedModel: model,
    context: { cwd, gitRoot: cwd, branch: 'main', repository: 'acme/app' },
  });
  let resumed = false;
  while (f.size < target) {
    const ask = sentence(r, between(r, 8, 50));
    ev('user.message', {
      content: ask,
      transformedContent: `<current_datetime>${new Date(ms).toISOString()}</current_datetime>\n\n${ask}`,
      attachments: [],
      interactionId: uuid(r),
    });
    ev('assistant.turn_start', { turnId: '0', interactionId: uuid(r) });
    const steps = between(r, 1, 5);
    for (let s = 0; s <= steps; s++) {
      const final = s === steps;
      if (r() < 0.4) ev('assistant.reasoning', { reasoningId: uuid(r), content: sentence(r, between(r, 10, 60)) });
      const requests = [];
      if (!final) {
        const name = r() < 0.04 ? 'task' : pick(r, ['bash', 'bash', 'view', 'edit', 'grep']);
        const path = `${cwd}/src/${pick(r, words)}.ts`;
        const args =
          name === 'task'
            ? { description: sentence(r, 4), prompt: sentence(r, 40), agent_type: 'explore' }
            : name === 'bash'
              ? { command: `rg -n ${pick(r, words)} src`, description: sentence(r, 5) }
              : name === 'edit'
                ? { path, old_str: codeBlock(r, 150), new_str: codeBlock(r, 200) }
                : name === 'view'
                  ? { path }
                  : { pattern: pick(r, words), path: cwd };
        requests.push({ toolCallId: `toolu_${uuid(r).replace(/-/g, '').slice(0, 24)}`, name, arguments: args, type: 'function' });
      }
      ev('assistant.message', {
        messageId: uuid(r),
        content: final || r() < 0.4 ? sentence(r, between(r, 20, 140)) : '',
        toolRequests: requests,
        interactionId: uuid(r),
        model,
      });
      spend(model);
      for (const req of requests) {
        ev('tool.execution_start', { toolCallId: req.toolCallId, toolName: req.name, arguments: req.arguments });
        if (req.name === 'task') {
          const agentId = `explore-${uuid(r).slice(0, 4)}`;
          ev(
            'subagent.started',
            {
              toolCallId: req.toolCallId,
              agentName: 'explore',
              agentDisplayName: 'Explore',
              agentDescription: 'Fast exploration',
              model: 'claude-haiku-4.5',
            },
            agentId,
          );
          ev('user.message', { content: req.arguments.prompt, source: `agent-${agentId}` }, agentId);
          for (let k = 0; k < 2; k++) {
            ev('assistant.message', { messageId: uuid(r), content: sentence(r, 30), toolRequests: [], model: 'claude-haiku-4.5' }, agentId);
            spend('claude-haiku-4.5');
          }
          ev('subagent.completed', {
            toolCallId: req.toolCallId,
            agentName: 'explore',
            agentDisplayName: 'Explore',
            model: 'claude-haiku-4.5',
            totalToolCalls: 0,
          });
        }
        const failed = r() < 0.06;
        const content = codeBlock(r, outputSize(r));
        ev(
          'tool.execution_complete',
          failed
            ? { toolCallId: req.toolCallId, success: false, error: { message: sentence(r, 8), code: 'failure' } }
            : { toolCallId: req.toolCallId, success: true, result: { content, detailedContent: content } },
        );
      }
    }
    ev('assistant.turn_end', { turnId: '0' });
    if (r() < 0.02)
      ev('session.compaction_complete', {
        success: true,
        summaryContent: sentence(r, 40),
        preCompactionTokens: 90_000,
        postCompactionTokens: 12_000,
      });
    if (!resumed && f.size > target / 2 && r() < 0.3) {
      resumed = true;
      shutdown();
      ms += 3_600_000;
      ev('session.resume', { resumeTime: new Date(ms).toISOString(), eventCount: 100, context: { cwd, branch: 'main' } });
    }
  }
  shutdown();
  f.close();
  writeFileSync(
    join(dir, 'workspace.yaml'),
    `id: ${id}\ncwd: ${cwd}\nsummary: ${sentence(r, 5)}\ncreated_at: ${new Date(startMs).toISOString()}\nupdated_at: ${new Date(ms).toISOString()}\n`,
  );
  return f.size;
}

/** Writes Copilot CLI sessions under `<home>/.copilot` until `target` bytes. */
export function generateCopilot(home, target, r, now) {
  const stats = newStats();
  fillTo(stats, target, r, cap, (size, i) => {
    const id = uuid(r);
    const startMs = now - 10 * 86_400_000 + Math.floor(r() * 9.5 * 86_400_000);
    stats.bytes += writeSession(join(home, '.copilot', 'session-state', id), id, projectCwd(i), startMs, size, r, stats);
    stats.files++;
    stats.sessions++;
    stats.ids.push(id);
  });
  return stats;
}
