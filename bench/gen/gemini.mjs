// Gemini CLI chats (research peers.md §5, corpus gemini/): `tmp/<sha256(project root)>/chats/`
// holding `session-<date>-<id8>.json`, one pretty-printed document rewritten whole as the chat grows,
// and the newer JSONL variant (a metadata line, one message a line, `$set` patch lines, and a message
// written again under its id once its tool calls have results).
import { createHash } from 'node:crypto';
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
  writeWhole,
} from './common.mjs';

/** Documents are read whole (≤ 64 MiB bound) and real chats stay small: cap them lower. */
const cap = 8_000_000;

function shellOutput(command, body, exit) {
  return `Command: ${command}\nDirectory: (root)\nOutput: ${body}\nError: (none)\nExit Code: ${exit}\nSignal: (none)\nBackground PIDs: (none)\nProcess Group PGID: 4242`;
}

/** One tool call with its result, as the chat recording stores it. */
function toolCall(r, cwd, atMs) {
  const kind = pick(r, ['run_shell_command', 'run_shell_command', 'read_file', 'replace', 'search_file_content']);
  const id = `${kind}-${atMs}-${Math.floor(r() * 1e12).toString(16)}`;
  const file = `${cwd}/src/${pick(r, words)}.ts`;
  let args;
  let output;
  let display;
  if (kind === 'run_shell_command') {
    args = { command: `rg -n ${pick(r, words)} src`, description: sentence(r, 6), ...(r() < 0.3 ? { dir_path: 'src' } : {}) };
    const body = codeBlock(r, outputSize(r));
    const exit = r() < 0.08 ? 1 : 0;
    output = shellOutput(args.command, body, exit);
    display = body;
  } else if (kind === 'read_file') {
    args = { absolute_path: file };
    output = codeBlock(r, outputSize(r));
    display = '';
  } else if (kind === 'replace') {
    args = { file_path: file, instruction: sentence(r, 10), old_string: codeBlock(r, 150), new_string: codeBlock(r, 200) };
    output = `Successfully modified file: ${file} (1 replacements).`;
    display = { fileDiff: codeBlock(r, 400), fileName: file.split('/').at(-1) };
  } else {
    args = { pattern: pick(r, words), dir_path: cwd };
    output = codeBlock(r, outputSize(r));
    display = `Found ${between(r, 1, 40)} matches`;
  }
  return {
    id,
    name: kind,
    args,
    result: [{ functionResponse: { id, name: kind, response: { output } } }],
    status: 'success',
    timestamp: new Date(atMs).toISOString(),
    resultDisplay: display,
    displayName: kind === 'run_shell_command' ? 'Shell' : kind,
    description: sentence(r, 5),
    renderOutputAsMarkdown: kind !== 'run_shell_command',
  };
}

/** The messages of one chat of about `target` bytes (as JSON text), in order. */
function conversation(r, cwd, startMs, target, partsContent, stats) {
  const messages = [];
  let ms = startMs;
  let bytes = 0;
  const at = () => new Date((ms += between(r, 300, 20_000))).toISOString();
  const push = (m) => {
    messages.push(m);
    bytes += JSON.stringify(m).length + 40;
  };
  const model = pick(r, ['gemini-2.5-pro', 'gemini-3-flash-preview']);
  while (bytes < target) {
    const ask = sentence(r, between(r, 8, 50));
    push({ id: uuid(r), timestamp: at(), type: 'user', content: partsContent ? [{ text: ask }] : ask });
    const steps = between(r, 1, 5);
    for (let s = 0; s <= steps; s++) {
      const final = s === steps;
      const input = between(r, 2000, 60_000);
      const output = between(r, 20, 1500);
      const thoughts = between(r, 0, 800);
      const tool = final ? 0 : between(r, 0, 300);
      const tokens = { input, output, cached: between(r, 0, input), thoughts, tool, total: input + output + thoughts + tool };
      // `cached` is the part of `input` served from the cache: the record counts it once, as a cache
      // read, and the tool-use prompt as input (reasoning tokens are not checked here).
      countTokens(stats, input - tokens.cached + tool, output, tokens.cached, 0);
      const m = {
        id: uuid(r),
        timestamp: at(),
        type: 'gemini',
        content: final || r() < 0.3 ? sentence(r, between(r, 20, 150)) : '',
        thoughts:
          r() < 0.6
            ? [{ subject: sentence(r, 4), description: sentence(r, between(r, 10, 60)), timestamp: new Date(ms).toISOString() }]
            : [],
        tokens,
        model,
      };
      if (!final) m.toolCalls = Array.from({ length: between(r, 1, 3) }, () => toolCall(r, cwd, (ms += 500)));
      push(m);
    }
    if (r() < 0.03) push({ id: uuid(r), timestamp: at(), type: 'info', content: 'Request cancelled.' });
  }
  return { messages, endMs: ms };
}

/** Writes Gemini CLI chats under `<home>/.gemini/tmp` until `target` bytes. */
export function generateGemini(home, target, r, now) {
  const stats = newStats();
  fillTo(stats, target, r, cap, (size, i) => {
    const cwd = projectCwd(i);
    const projectHash = createHash('sha256').update(cwd).digest('hex');
    const sessionId = uuid(r);
    const startMs = now - 10 * 86_400_000 + Math.floor(r() * 9.5 * 86_400_000);
    const stamp = new Date(startMs).toISOString().slice(0, 16).replace(/:/g, '-');
    const chats = join(home, '.gemini', 'tmp', projectHash, 'chats');
    const jsonl = r() < 0.4;
    const { messages, endMs } = conversation(r, cwd, startMs, size * (jsonl ? 0.85 : 0.75), jsonl, stats);
    const meta = { sessionId, projectHash, startTime: new Date(startMs).toISOString(), lastUpdated: new Date(endMs).toISOString() };
    if (!jsonl) {
      stats.bytes += writeWhole(
        join(chats, `session-${stamp}-${sessionId.slice(0, 8)}.json`),
        JSON.stringify({ ...meta, kind: 'main', messages }, null, 2),
      );
    } else {
      const f = new LineFile(join(chats, `session-${stamp}-${sessionId.slice(0, 8)}.jsonl`));
      f.line({ ...meta, lastUpdated: meta.startTime, kind: 'main' });
      for (const m of messages) {
        if (m.toolCalls !== undefined) {
          // Written first while its tools run, then again under the same id with their results.
          f.line({ ...m, toolCalls: m.toolCalls.map(({ result, resultDisplay, ...c }) => ({ ...c, status: 'executing' })) });
        }
        f.line(m);
        if (m.type === 'user') f.line({ $set: { lastUpdated: m.timestamp } });
      }
      f.line({ $set: { lastUpdated: meta.lastUpdated } });
      f.close();
      stats.bytes += f.size;
    }
    stats.files++;
    stats.sessions++;
    stats.ids.push(sessionId);
  });
  return stats;
}
