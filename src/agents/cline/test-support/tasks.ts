// Task folders written in the shape Cline (v3.60) and Roo Code (v3.52) write them: the conversation
// sent to the model, the UI messages with each request's tokens, and the per-task side files.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface TaskFiles {
  api: unknown[];
  ui: unknown[];
  metadata?: unknown;
  historyItem?: unknown;
}

/** Writes `<home>/tasks/<id>/` as the extensions do (pretty-printed only where they pretty-print). */
export async function writeTask(home: string, id: string, files: TaskFiles): Promise<string> {
  const dir = join(home, 'tasks', id);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'api_conversation_history.json'), JSON.stringify(files.api));
  await writeFile(join(dir, 'ui_messages.json'), JSON.stringify(files.ui));
  if (files.metadata !== undefined) await writeFile(join(dir, 'task_metadata.json'), JSON.stringify(files.metadata, null, 2));
  if (files.historyItem !== undefined) await writeFile(join(dir, 'history_item.json'), JSON.stringify(files.historyItem, null, 2));
  return dir;
}

export const environment = (cwd: string, roo = false): string =>
  `<environment_details>\n# VSCode Visible Files\nsrc/parser.ts\n\n# Current Time\n10/1/2026, 9:00:00 AM (UTC, UTC+0:00)\n\n# Current ${roo ? 'Workspace' : 'Working'} Directory (${cwd}) Files\nsrc/\nsrc/parser.ts\n\n# Current Mode\nACT MODE\n</environment_details>`;

/** The first user message: the task in its tag, then the environment block. */
export function taskMessage(text: string, cwd: string, ts?: number, tag = 'task'): Record<string, unknown> {
  return {
    role: 'user',
    content: [
      { type: 'text', text: `<${tag}>\n${text}\n</${tag}>` },
      { type: 'text', text: environment(cwd, tag === 'user_message') },
    ],
    ...(ts === undefined ? {} : { ts }),
  };
}

export function assistantMessage(content: unknown[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { role: 'assistant', content, ...extra };
}

export const text = (t: string): { type: 'text'; text: string } => ({ type: 'text', text: t });

export const clineModel = (modelId: string): Record<string, unknown> => ({ modelInfo: { modelId, providerId: 'anthropic', mode: 'act' } });

/** A UI message. */
export function ui(
  ts: number,
  kind: 'say' | 'ask',
  what: string,
  textValue: string,
  index?: number,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    ts,
    type: kind,
    [kind]: what,
    text: textValue,
    ...(index === undefined ? {} : { conversationHistoryIndex: index }),
    ...extra,
  };
}

/** `say: api_req_started` with the request's figures, as Cline updates it when the stream ends. */
export function apiReq(
  ts: number,
  index: number,
  tokens: { tokensIn: number; tokensOut: number; cacheWrites?: number; cacheReads?: number; cost?: number },
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return ui(ts, 'say', 'api_req_started', JSON.stringify({ request: '<task>…</task>', ...tokens }), index, extra);
}
