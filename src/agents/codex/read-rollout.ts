// Streams one rollout file into a thread: each line parsed once, dispatched on its envelope type and
// payload kind; unknown kinds are skipped, so a newer Codex build's additions never break a read.
// Below the full level a long line's bulk nobody reads is cut out before it is parsed (blank-bulk).
import type { LineInfo } from '../../fs/read-lines.js';
import { arr, isObject, num, str, text, type JsonObject } from '../../json/narrow.js';
import { skimJsonl } from '../skim-jsonl.js';
import { blankIsUnread, minBulkyLineBytes, parseBlanked } from './blank-bulk.js';
import { codexLine, type CodexLine } from './codex-line.js';
import { readMeta } from './rollout-meta.js';
import { applySpawnEnd, readSpawnArgs } from './spawn-launch.js';
import { ThreadBuilder, type DetailNeeds, type RolloutThread } from './thread-builder.js';
import { tokenCountUsage, usageRecordUsage } from './tokens.js';
import {
  applyMcpResult,
  contentText,
  customToolCall,
  functionCall,
  localShellCall,
  mcpCallFromEvent,
  webSearchCall,
} from './tool-calls.js';
import { userTextOfEvent, userTextOfMessage } from './user-text.js';

/** A line longer than this is skipped and counted as bad rather than decoded (bounds memory). */
export const maxRolloutLineBytes = 64 * 1024 * 1024;

export interface RolloutRead {
  thread: RolloutThread;
  badLines: number;
}

function summaryTexts(payload: JsonObject): string[] {
  const out: string[] = [];
  for (const part of arr(payload, 'summary') ?? []) {
    if (isObject(part) && part.type === 'summary_text' && typeof part.text === 'string') out.push(part.text);
  }
  return out;
}

function responseItem(b: ThreadBuilder, p: JsonObject, at: string | null, needs: DetailNeeds): void {
  switch (p.type) {
    case 'message': {
      const role = p.role;
      if (role === 'assistant') b.assistant(p, at);
      else if (role === 'user') {
        const typed = userTextOfMessage(p);
        if (typed.aborted) b.interruption(at, undefined);
        b.user(typed.text, at, 'item');
      }
      // Developer and system messages are the harness's configuration: never turns.
      return;
    }
    case 'reasoning':
      // Only the summary is read: `encrypted_content` is never touched.
      b.reasoning(summaryTexts(p), at, 'item');
      return;
    case 'function_call': {
      const launch = b.call(functionCall(p, needs.tools), text(p, 'call_id'), at);
      if (launch !== undefined) readSpawnArgs(launch, p.arguments);
      return;
    }
    case 'custom_tool_call':
      b.call(customToolCall(p, needs.tools), text(p, 'call_id'), at);
      return;
    case 'local_shell_call':
      b.call(localShellCall(p, needs.tools), text(p, 'call_id') ?? text(p, 'id'), at);
      return;
    case 'function_call_output':
    case 'custom_tool_call_output': {
      const id = text(p, 'call_id');
      if (id !== undefined) b.output(id, p.output);
      return;
    }
    case 'web_search_call':
      b.call({ call: webSearchCall(p, needs.tools), spawn: undefined }, undefined, at);
      return;
    case 'tool_search_call': {
      const call = { name: 'tool_search' };
      b.call(
        {
          call: needs.tools && p.arguments !== undefined ? { ...call, format: 'json' as const, input: JSON.stringify(p.arguments) } : call,
          spawn: undefined,
        },
        text(p, 'call_id'),
        at,
      );
      return;
    }
    case 'tool_search_output': {
      const id = text(p, 'call_id');
      if (id === undefined || !needs.tools) return;
      const names = (arr(p, 'tools') ?? []).flatMap((t) => (isObject(t) && typeof t.name === 'string' ? [t.name] : []));
      b.output(id, names.join(', '));
      return;
    }
    case 'image_generation_call': {
      // The result is the image itself (base64): never kept.
      const prompt = needs.tools ? text(p, 'revised_prompt') : undefined;
      b.call(
        {
          call: prompt === undefined ? { name: 'image_generation' } : { name: 'image_generation', format: 'text', input: prompt },
          spawn: undefined,
        },
        undefined,
        at,
      );
      return;
    }
    case 'agent_message': {
      // Multi-agent v2: a message between agents. Addressed to this thread, it is the task (or a
      // follow-up) this agent was given; anything else is another thread's traffic.
      const own = b.meta?.agentPath;
      if (own !== undefined && p.recipient === own && p.author !== own) b.user((contentText(p.content) ?? '').trim(), at, undefined);
      return;
    }
    case 'compaction':
    case 'compaction_summary':
      b.compaction(at);
      return;
    default:
      return;
  }
}

function eventMsg(b: ThreadBuilder, p: JsonObject, at: string | null, needs: DetailNeeds): void {
  switch (p.type) {
    case 'user_message': {
      const typed = userTextOfEvent(p);
      if (typed.aborted) b.interruption(at, undefined);
      b.user(typed.text, at, 'event');
      return;
    }
    case 'agent_reasoning':
      b.reasoning([str(p, 'text') ?? ''], at, 'event');
      return;
    case 'token_count': {
      const usage = tokenCountUsage(p);
      if (usage !== undefined) b.usage(usage, at);
      return;
    }
    case 'turn_aborted':
      b.turnAborted();
      b.interruption(at, text(p, 'reason'));
      return;
    case 'context_compacted':
      b.compaction(at);
      return;
    case 'task_started':
      b.taskStarted();
      return;
    case 'task_complete':
      b.taskComplete(p);
      return;
    case 'error':
      b.error();
      return;
    case 'collab_agent_spawn_end': {
      const id = text(p, 'call_id');
      const launch = id === undefined ? undefined : b.launchFor(id);
      if (launch !== undefined) applySpawnEnd(launch, p);
      return;
    }
    case 'mcp_tool_call_end': {
      const id = text(p, 'call_id');
      const known = id === undefined ? undefined : b.callById(id);
      if (known === undefined) b.eventCall({ call: mcpCallFromEvent(p, needs.tools), spawn: undefined }, id, at);
      else if (needs.tools && known.status === undefined) applyMcpResult(known, p);
      return;
    }
    case 'exec_command_end': {
      const id = text(p, 'call_id');
      const call = id === undefined || !needs.tools ? undefined : b.callById(id);
      const exit = num(p, 'exit_code');
      if (call !== undefined && exit !== undefined && call.exit_code === undefined) {
        call.exit_code = exit;
        if (call.status === undefined || call.status === 'ok') call.status = exit === 0 ? 'ok' : 'error';
      }
      return;
    }
    case 'patch_apply_end': {
      const id = text(p, 'call_id');
      const call = id === undefined || !needs.tools ? undefined : b.callById(id);
      if (call !== undefined && p.success === false) call.status = 'error';
      return;
    }
    default:
      return;
  }
}

/** Reads one rollout. Throws only for I/O; bad lines are counted, a torn last line is left alone. */
export async function readRollout(path: string, needs: DetailNeeds): Promise<RolloutRead> {
  const b = new ThreadBuilder(needs);
  let historyStart: number | undefined;
  let first = true;
  let bare = false;
  const take = (obj: JsonObject, line: CodexLine | undefined): void => {
    if (first) {
      first = false;
      // The 2025 layout: a flat `{id, timestamp, instructions}` line, then bare response items.
      bare = line !== undefined && line.payload === obj;
    }
    if (line === undefined) return;
    if (line.type === 'session_meta') {
      // The first meta is this thread's; later ones are copies (forks, resumed histories).
      if (b.meta === undefined) {
        const meta = readMeta(line.payload);
        b.setMeta(meta);
        historyStart = meta.historyStartOrdinal;
        b.noteLine(line.at);
      }
      return;
    }
    // A forked child's copy of its parent's history is the parent's, not the child's.
    if (historyStart !== undefined && line.ordinal !== undefined && line.ordinal < historyStart) return;
    if (line.metadata?.inherited_user_message === true) return;
    b.noteLine(line.at);
    switch (line.type) {
      case 'response_item':
        responseItem(b, line.payload, line.at, needs);
        return;
      case 'event_msg':
        eventMsg(b, line.payload, line.at, needs);
        return;
      case 'turn_context':
        b.turnContext(line.payload);
        return;
      case 'compacted':
        // Its summary (and replacement history) is context for the model, not something said.
        b.compaction(line.at);
        return;
      case 'token_usage_record': {
        const usage = usageRecordUsage(line.payload, b.meta?.id);
        if (usage !== undefined) b.usage(usage, line.at);
        return;
      }
      default:
        return;
    }
  };
  const launched = (callId: string): boolean => b.launchFor(callId) !== undefined;
  const badLines = skimJsonl(
    path,
    {
      ...(needs.tools
        ? {}
        : {
            skim: (buf: Buffer, start: number, end: number, info: LineInfo): boolean => {
              if (first || !info.complete || end - start < minBulkyLineBytes) return false;
              const blanked = parseBlanked(buf, start, end);
              if (blanked === undefined) return false;
              const line = codexLine(blanked.obj, bare);
              if (line === undefined || !blankIsUnread(line, blanked.key, launched)) return false;
              take(blanked.obj, line);
              return true;
            },
          }),
      onObject: (obj) => take(obj, codexLine(obj, bare)),
    },
    { maxLineBytes: maxRolloutLineBytes },
  );
  return { thread: b.finish(), badLines };
}
