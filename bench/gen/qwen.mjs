// Qwen Code chats (QwenLM/qwen-code packages/core/src/services/chatRecordingService.ts): one JSONL
// file per session under `.qwen/projects/<sanitised cwd>/chats/<session id>.jsonl`, one `ChatRecord`
// a line chained by uuid/parentUuid, messages as Gemini `Content`, usage as OpenAI-compatible
// providers report it through Qwen Code (completion count with reasoning inside it). Some sessions
// rewind (the rewound records stay on a dead branch), some run a `task` subagent whose summary is
// the call's `task_execution` result display, some compress their context.
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

function writeSession(path, id, cwd, startMs, target, r, stats) {
  const f = new LineFile(path);
  let ms = startMs;
  let tail = null;
  const turnParents = [];
  const add = (type, body, parent = tail) => {
    const rec = {
      uuid: uuid(r),
      parentUuid: parent,
      sessionId: id,
      timestamp: new Date((ms += between(r, 200, 20_000))).toISOString(),
      type,
      cwd,
      version: '0.2.1',
      gitBranch: 'main',
      ...body,
    };
    f.line(rec);
    tail = rec.uuid;
    return rec.uuid;
  };
  let rewound = false;
  let owed = false;
  while (f.size < target || owed) {
    owed = false;
    turnParents.push(tail);
    let ranTask = false;
    const ask = sentence(r, between(r, 8, 50));
    add('user', { message: { role: 'user', parts: [{ text: ask }] }, systemPayload: { displayText: ask, hookContext: '' } });
    const steps = between(r, 1, 5);
    for (let s = 0; s <= steps; s++) {
      const final = s === steps;
      const parts = [];
      const thinking = r() < 0.5;
      if (thinking) parts.push({ text: sentence(r, between(r, 10, 60)), thought: true });
      if (final || r() < 0.4) parts.push({ text: sentence(r, between(r, 20, 140)) });
      let call;
      if (!final) {
        const name = r() < 0.04 ? 'task' : pick(r, ['run_shell_command', 'run_shell_command', 'read_file', 'edit', 'grep_search']);
        const file = `${cwd}/src/${pick(r, words)}.ts`;
        const args =
          name === 'task'
            ? { description: sentence(r, 4), prompt: sentence(r, 40), subagent_type: 'general-purpose' }
            : name === 'run_shell_command'
              ? { command: `rg -n ${pick(r, words)} src`, is_background: false }
              : name === 'edit'
                ? { file_path: file, old_string: codeBlock(r, 150), new_string: codeBlock(r, 200) }
                : name === 'read_file'
                  ? { absolute_path: file }
                  : { pattern: pick(r, words), path: cwd };
        call = { id: `call_${uuid(r).replace(/-/g, '').slice(0, 24)}`, name, args };
        parts.push({ functionCall: call });
      }
      const prompt = between(r, 2000, 90_000);
      const cached = Math.floor(prompt * r() * 0.9);
      const reasoning = thinking ? between(r, 10, 600) : 0;
      const completion = between(r, 20, 1200) + reasoning;
      countTokens(stats, prompt - cached, completion - reasoning, cached, 0);
      add('assistant', {
        model: 'qwen3-coder-plus',
        message: { role: 'model', parts },
        usageMetadata: {
          promptTokenCount: prompt,
          candidatesTokenCount: completion,
          totalTokenCount: prompt + completion,
          cachedContentTokenCount: cached,
          thoughtsTokenCount: reasoning,
        },
        contextWindowSize: 1_000_000,
      });
      if (call !== undefined) {
        const failed = r() < 0.06;
        const output =
          call.name === 'run_shell_command'
            ? `Command: ${call.args.command}\nOutput: ${codeBlock(r, outputSize(r))}\nExit Code: ${failed ? 1 : 0}`
            : codeBlock(r, outputSize(r));
        const response = failed && call.name !== 'run_shell_command' ? { error: sentence(r, 8) } : { output };
        const toolCallResult = { callId: call.id, status: failed && call.name !== 'run_shell_command' ? 'error' : 'success' };
        if (call.name === 'task') {
          ranTask = true;
          const input = between(r, 5000, 60_000);
          const out = between(r, 100, 3000);
          countTokens(stats, input, out, 0, 0);
          toolCallResult.resultDisplay = {
            type: 'task_execution',
            subagentName: 'general-purpose',
            taskDescription: call.args.description,
            taskPrompt: call.args.prompt,
            status: 'completed',
            result: sentence(r, 60),
            executionSummary: {
              rounds: 3,
              totalDurationMs: 9000,
              totalToolCalls: 2,
              successfulToolCalls: 2,
              failedToolCalls: 0,
              successRate: 100,
              inputTokens: input,
              outputTokens: out,
              totalTokens: input + out,
            },
          };
        }
        add('tool_result', {
          message: { role: 'user', parts: [{ functionResponse: { id: call.id, name: call.name, response } }] },
          toolCallResult,
        });
      }
    }
    if (r() < 0.02)
      add('system', {
        subtype: 'chat_compression',
        systemPayload: { info: { originalTokenCount: 90_000, newTokenCount: 12_000, compressionStatus: 1 }, compressedHistory: [] },
      });
    // Never rewinds a turn that ran a subagent: the record drops such a child with its tokens.
    if (!rewound && !ranTask && turnParents.length > 2 && f.size > target / 3 && r() < 0.3) {
      // `/rewind` to before the last prompt: its records stay in the file on a dead branch.
      rewound = true;
      owed = true;
      add('system', { subtype: 'rewind', systemPayload: { truncatedCount: 2 } }, turnParents.at(-1));
    }
  }
  f.close();
  return f.size;
}

/** Writes Qwen Code chats under `<home>/.qwen` until `target` bytes. */
export function generateQwen(home, target, r, now) {
  const stats = newStats();
  fillTo(stats, target, r, cap, (size, i) => {
    const cwd = projectCwd(i);
    const id = uuid(r);
    const startMs = now - 10 * 86_400_000 + Math.floor(r() * 9.5 * 86_400_000);
    const path = join(home, '.qwen', 'projects', cwd.replace(/[^a-zA-Z0-9]/g, '-'), 'chats', `${id}.jsonl`);
    stats.bytes += writeSession(path, id, cwd, startMs, size, r, stats);
    stats.files++;
    stats.sessions++;
    stats.ids.push(id);
  });
  return stats;
}
