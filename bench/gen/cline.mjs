// Cline and Roo Code tasks (src/agents/cline/README.md names the sources): `tasks/<id>/` holding
// `api_conversation_history.json` (the conversation the extension sends, rewritten whole),
// `ui_messages.json` (what the panel shows, each request's tokens on `api_req_started`) and a side
// file (Cline `task_metadata.json`, Roo Code `history_item.json`). Cline tasks mix XML tool uses
// answered by `[tool for 'x'] Result:` text blocks with native `tool_use` blocks; Roo Code tasks use
// native tool calls, stamp `ts` on every message, and now and then delegate to a subtask folder.
import { join } from 'node:path';
import {
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

/** Documents are parsed whole (≤ 128 MiB bound); real tasks stay far smaller. */
const cap = 8_000_000;

const environment = (cwd, roo, ms) =>
  `<environment_details>\n# VSCode Visible Files\nsrc/index.ts\n\n# VSCode Open Tabs\nsrc/index.ts\n\n# Current Time\n${new Date(ms).toUTCString()}\n\n# Current ${roo ? 'Workspace' : 'Working'} Directory (${cwd}) Files\nsrc/\nsrc/index.ts\npackage.json\n\n# Current Mode\nACT MODE\n</environment_details>`;

/** One tool use and its result: name, arguments, output text, whether it failed. */
function tool(r, cwd) {
  const kind = pick(r, ['read_file', 'execute_command', 'replace_in_file', 'search_files', 'write_to_file']);
  const path = `src/${pick(r, words)}.ts`;
  const failed = r() < 0.05;
  let args;
  let output;
  if (kind === 'execute_command') {
    args = { command: `npm test -- ${pick(r, words)}`, requires_approval: 'false' };
    output = `Command executed.\nOutput:\n${codeBlock(r, outputSize(r))}`;
  } else if (kind === 'replace_in_file') {
    args = { path, diff: `------- SEARCH\n${codeBlock(r, 150)}\n=======\n${codeBlock(r, 200)}\n+++++++ REPLACE` };
    output = `The content was successfully saved to ${path}.`;
  } else if (kind === 'write_to_file') {
    args = { path, content: codeBlock(r, between(r, 200, 3000)) };
    output = `The content was successfully saved to ${path}.`;
  } else if (kind === 'search_files') {
    args = { path: 'src', regex: pick(r, words) };
    output = `Found ${between(r, 1, 30)} results.\n\n${codeBlock(r, outputSize(r))}`;
  } else {
    args = { path };
    output = codeBlock(r, outputSize(r));
  }
  if (failed) output = `The tool execution failed with the following error:\n<error>\n${sentence(r, 8)}\n</error>`;
  return { kind, args, output, path: kind === 'execute_command' ? args.command : path, cwd };
}

const xmlOf = (t) =>
  `<${t.kind}>\n${Object.entries(t.args)
    .map(([k, v]) => `<${k}>${v}</${k}>`)
    .join('\n')}\n</${t.kind}>`;

/** The messages of one task of about `target` bytes, and its UI messages; tokens counted into `stats`. */
function conversation(r, cwd, startMs, target, roo, stats) {
  const api = [];
  const ui = [];
  let ms = startMs;
  let bytes = 0;
  const next = () => (ms += between(r, 300, 15_000));
  const push = (m) => {
    api.push(roo ? { ...m, ts: next() } : m);
    bytes += JSON.stringify(m).length;
  };
  const model = pick(r, ['claude-sonnet-4-5', 'gpt-5']);
  const request = () => {
    const input = between(r, 3, 4000);
    const cacheRead = between(r, 0, 80_000);
    const cacheWrite = between(r, 0, 3000);
    const output = between(r, 20, 1200);
    countTokens(stats, input, output, cacheRead, cacheWrite);
    // Cline states the uncached input; Roo Code (3.29.5+) the whole prompt, cache included.
    const tokensIn = roo ? input + cacheRead + cacheWrite : input;
    const info = { request: '…', tokensIn, tokensOut: output, cacheWrites: cacheWrite, cacheReads: cacheRead, cost: output * 15e-6 };
    ui.push({
      ts: next(),
      type: 'say',
      say: 'api_req_started',
      text: JSON.stringify(roo ? { ...info, apiProtocol: 'anthropic' } : info),
      conversationHistoryIndex: api.length - 1,
    });
  };
  const tag = roo ? 'user_message' : 'task';
  const ask = sentence(r, between(r, 8, 40));
  ui.push({ ts: ms, type: 'say', say: 'task', text: ask, conversationHistoryIndex: -1 });
  request();
  push({
    role: 'user',
    content: [
      { type: 'text', text: `<${tag}>\n${ask}\n</${tag}>` },
      { type: 'text', text: environment(cwd, roo, ms) },
    ],
  });
  const native = roo || r() < 0.4;
  while (bytes < target) {
    const tools = Array.from({ length: between(r, 1, 3) }, () => tool(r, cwd));
    const prose = sentence(r, between(r, 10, 80));
    const content = [];
    if (r() < 0.3) content.push({ type: 'thinking', thinking: sentence(r, between(r, 10, 60)), signature: 'sig' });
    if (native) {
      content.push({ type: 'text', text: prose });
      for (const t of tools) {
        t.id = `toolu_${uuid(r).replaceAll('-', '').slice(0, 24)}`;
        content.push({ type: 'tool_use', id: t.id, name: t.kind, input: t.args });
      }
    } else content.push({ type: 'text', text: `${prose}\n\n${tools.map(xmlOf).join('\n\n')}` });
    ui.push({ ts: next(), type: 'say', say: 'text', text: prose, conversationHistoryIndex: api.length - 1 });
    push({ role: 'assistant', content, ...(roo ? {} : { modelInfo: { modelId: model, providerId: 'anthropic', mode: 'act' } }) });
    request();
    const results = tools.map((t) =>
      roo
        ? { type: 'tool_result', tool_use_id: t.id, content: t.output }
        : { type: 'text', text: `[${t.kind} for '${t.path}'] Result:\n${t.output}` },
    );
    if (r() < 0.05) results.push({ type: 'text', text: `<feedback>\n${sentence(r, 12)}\n</feedback>` });
    push({ role: 'user', content: [...results, { type: 'text', text: environment(cwd, roo, ms) }] });
  }
  push({ role: 'assistant', content: [{ type: 'text', text: sentence(r, between(r, 20, 120)) }] });
  ui.push({ ts: next(), type: 'say', say: 'completion_result', text: 'done', conversationHistoryIndex: api.length - 1 });
  return { api, ui, endMs: ms };
}

function writeTask(dir, parts) {
  let bytes = writeWhole(join(dir, 'api_conversation_history.json'), JSON.stringify(parts.api));
  bytes += writeWhole(join(dir, 'ui_messages.json'), JSON.stringify(parts.ui));
  bytes += writeWhole(join(dir, parts.sideName), JSON.stringify(parts.side, null, 2));
  return bytes;
}

function generate(home, target, r, now, roo) {
  const stats = newStats();
  const root = roo ? join(home, '.config', 'Code', 'User', 'globalStorage', 'rooveterinaryinc.roo-cline') : join(home, '.cline', 'data');
  fillTo(stats, target, r, cap, (size, i) => {
    const cwd = projectCwd(i);
    const startMs = now - 10 * 86_400_000 + Math.floor(r() * 9.5 * 86_400_000);
    const id = roo ? uuid(r) : String(startMs);
    const withChild = roo && r() < 0.1;
    const main = conversation(r, cwd, startMs, size * (withChild ? 0.6 : 0.85), roo, stats);
    let side;
    if (roo) {
      side = { id, number: i + 1, ts: main.endMs, task: 'task', tokensIn: 0, tokensOut: 0, totalCost: 0, workspace: cwd, mode: 'code' };
    } else {
      side = {
        files_in_context: [],
        model_usage: [{ ts: startMs, model_id: 'claude-sonnet-4-5', model_provider_id: 'anthropic', mode: 'act' }],
        environment_history: [],
      };
    }
    if (withChild) {
      const childId = uuid(r);
      const child = conversation(r, cwd, startMs + 1000, size * 0.25, roo, stats);
      // The parent's last request delegates; the result names the child as Roo Code's provider writes it.
      const callId = `call_${childId.slice(0, 8)}`;
      main.api.splice(
        -1,
        0,
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: callId, name: 'new_task', input: { mode: 'ask', message: 'collect the changes' } }],
          ts: main.endMs + 1,
        },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: callId, content: `Subtask ${childId} completed.\n\nResult:\ndone` }],
          ts: main.endMs + 2,
        },
      );
      side.childIds = [childId];
      stats.bytes += writeTask(join(root, 'tasks', childId), {
        ...child,
        sideName: 'history_item.json',
        side: {
          id: childId,
          parentTaskId: id,
          rootTaskId: id,
          number: i + 2,
          ts: child.endMs,
          task: 'collect the changes',
          tokensIn: 0,
          tokensOut: 0,
          totalCost: 0,
          workspace: cwd,
          mode: 'ask',
          status: 'completed',
        },
      });
      stats.files += 3;
    }
    stats.bytes += writeTask(join(root, 'tasks', id), { ...main, sideName: roo ? 'history_item.json' : 'task_metadata.json', side });
    stats.files += 3;
    stats.sessions++;
    stats.ids.push(id);
  });
  return stats;
}

/** Writes Cline tasks under `<home>/.cline/data/tasks` until `target` bytes. */
export const generateCline = (home, target, r, now) => generate(home, target, r, now, false);
/** Writes Roo Code tasks under VS Code's global storage in `<home>/.config` until `target` bytes. */
export const generateRooCode = (home, target, r, now) => generate(home, target, r, now, true);
