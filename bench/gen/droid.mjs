// Factory Droid sessions (Factory-AI/droid-sdk-typescript src/session-discovery.ts, and the line shapes
// public readers of real files read): `.factory/sessions/-<cwd>/<id>.jsonl` opening with
// `session_start`, then `message` lines with Anthropic-style content blocks (tool results in user
// messages), and a sibling `<id>.settings.json` whose `tokenUsage` states the session's own tokens.
// Some sessions run a `Task` sub-agent: a session of its own naming the caller and the call.
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

function usage(r, stats) {
  const u = {
    inputTokens: between(r, 2000, 200_000),
    outputTokens: between(r, 200, 20_000),
    cacheCreationTokens: between(r, 0, 20_000),
    cacheReadTokens: between(r, 0, 900_000),
    thinkingTokens: between(r, 0, 3000),
  };
  countTokens(stats, u.inputTokens, u.outputTokens, u.cacheReadTokens, u.cacheCreationTokens);
  return u;
}

function settings(dir, id, r, stats) {
  writeFileSync(
    join(dir, `${id}.settings.json`),
    JSON.stringify(
      {
        model: 'claude-sonnet-4-5-20250929',
        providerLock: 'anthropic',
        assistantActiveTimeMs: between(r, 1000, 90_000),
        tokenUsage: usage(r, stats),
      },
      null,
      2,
    ),
  );
}

function writeSession(dir, id, cwd, startMs, target, r, stats, calling) {
  const f = new LineFile(join(dir, `${id}.jsonl`));
  let ms = startMs;
  let parent = null;
  const msg = (role, content, extra = {}) => {
    const mid = uuid(r);
    f.line({
      type: 'message',
      id: mid,
      timestamp: new Date((ms += between(r, 200, 20_000))).toISOString(),
      ...(parent === null ? {} : { parentId: parent }),
      message: { role, content, ...extra },
    });
    parent = mid;
  };
  f.line({ type: 'session_start', id, title: sentence(r, 5), owner: 'bench', version: 2, cwd, ...(calling ?? {}) });
  let spawned = 0;
  while (f.size < target) {
    const reminder = r() < 0.5 ? `<system-reminder>\n${sentence(r, 30)}\n</system-reminder>\n\n` : '';
    msg('user', [{ type: 'text', text: reminder + sentence(r, between(r, 8, 50)) }]);
    const steps = between(r, 1, 5);
    for (let s = 0; s <= steps; s++) {
      const final = s === steps;
      const content = [];
      if (r() < 0.4) content.push({ type: 'thinking', thinking: sentence(r, between(r, 10, 60)), signature: uuid(r) });
      if (final || r() < 0.4) content.push({ type: 'text', text: sentence(r, between(r, 20, 140)) });
      let call;
      if (!final) {
        const name =
          calling === undefined && spawned === 0 && r() < 0.05 ? 'Task' : pick(r, ['Execute', 'Execute', 'Read', 'Edit', 'Grep']);
        const file = `${cwd}/src/${pick(r, words)}.ts`;
        const input =
          name === 'Task'
            ? { subagent_type: 'worker', description: sentence(r, 4), prompt: sentence(r, 40) }
            : name === 'Execute'
              ? { command: `rg -n ${pick(r, words)} src`, riskLevel: 'low' }
              : name === 'Edit'
                ? { file_path: file, old_str: codeBlock(r, 150), new_str: codeBlock(r, 200) }
                : name === 'Read'
                  ? { file_path: file }
                  : { pattern: pick(r, words), path: cwd };
        call = { type: 'tool_use', id: `toolu_${uuid(r).replace(/-/g, '').slice(0, 24)}`, name, input };
        content.push(call);
      }
      msg('assistant', content, { model: 'claude-sonnet-4-5-20250929' });
      if (call !== undefined) {
        if (call.name === 'Task') {
          spawned++;
          const child = uuid(r);
          writeSession(dir, child, cwd, ms, Math.min(200_000, target / 6 + 3000), r, stats, {
            callingSessionId: id,
            callingToolUseId: call.id,
          });
          stats.files += 2;
        }
        const failed = r() < 0.06;
        msg('user', [
          { type: 'tool_result', tool_use_id: call.id, content: codeBlock(r, outputSize(r)), ...(failed ? { is_error: true } : {}) },
        ]);
      }
    }
  }
  f.close();
  settings(dir, id, r, stats);
  return f.size;
}

/** Writes Droid sessions under `<home>/.factory` until `target` bytes; the first run in `cwds`. */
export function generateDroid(home, target, r, now, cwds = []) {
  const stats = newStats();
  fillTo(stats, target, r, cap, (size, i) => {
    const cwd = cwds[i] ?? projectCwd(i);
    const id = uuid(r);
    const dir = join(home, '.factory', 'sessions', `-${cwd.replace(/^\/+/, '').replace(/\/+/g, '-')}`);
    const startMs = now - 10 * 86_400_000 + Math.floor(r() * 9.5 * 86_400_000);
    stats.bytes += writeSession(dir, id, cwd, startMs, size, r, stats, undefined);
    stats.files += 2;
    stats.sessions++;
    stats.ids.push(id);
  });
  return stats;
}
