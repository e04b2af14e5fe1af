// What the person typed, out of a Codex user message: Codex (and harnesses driving it) inject
// AGENTS.md dumps, environment and permission blocks and markers as user messages; those parts are
// machinery and go (seed 003 "What a session becomes", research livingbrain §3).
import { asArray, isObject, str, type JsonObject } from '../../json/narrow.js';

/**
 * A part whose text (leading space ignored) starts with one of these was written by the harness.
 * A typed prompt can really start with such a tag; only newer builds' `content_item_kinds` can tell
 * the two apart, so where the tag is absent the rare miss is accepted.
 */
export const machineryPrefixes = [
  '<user_instructions>',
  '<environment_context>',
  '<permissions instructions>',
  '# AGENTS.md instructions for ',
  '<INSTRUCTIONS>',
  '<collaboration_mode>',
  '<apps_instructions>',
  '<skills_instructions>',
  '<plugins_instructions>',
  '<codex_internal_context',
  '<turn_aborted>',
  '<multi_agent_mode>',
  '<recommended_plugins>',
  // A selected skill's SKILL.md, pasted in by Codex (`skills.selected_skill_instructions`).
  '<skill>',
  // `!cmd` in the TUI: a shell command and its output, not a message.
  '<user_shell_command>',
  // A spawned agent reporting back to its parent.
  '<subagent_notification>',
  // Intendant's context-rewind primer, injected into the Codex threads it manages.
  '<model_context_rewind_primer>',
  // The hand-off Codex's inline compaction writes before the summary.
  'Another language model started to solve this problem',
] as const;

/** The kind newer builds tag a typed part with (`internal_chat_message_metadata_passthrough`). */
const typedKind = 'user.text';

export const abortMarker = '<turn_aborted>';

export interface UserText {
  /** The typed text, trimmed; "" when the message was only machinery. */
  text: string;
  /** The message carried Codex's `<turn_aborted>` marker (an interruption, not a message). */
  aborted: boolean;
}

function leadingTrimmed(text: string): string {
  const c = text.charCodeAt(0);
  return c === 32 || c === 10 || c === 9 || c === 13 ? text.trimStart() : text;
}

export function isMachinery(text: string): boolean {
  const t = leadingTrimmed(text);
  if (t.length === 0) return false;
  const first = t.charCodeAt(0);
  // Every prefix starts with `<`, `#` or `A`: most typed prompts are decided by one comparison.
  if (first !== 60 && first !== 35 && first !== 65) return false;
  for (const prefix of machineryPrefixes) if (t.startsWith(prefix)) return true;
  return false;
}

/** Codex from an editor opens the message with the editor's state (active file, open tabs...). */
const ideContextHeading = '# Context from my IDE setup:';
/** ...and puts what was typed after this heading. */
const ideRequestHeading = '## My request for Codex:';

/**
 * What was typed, out of a message the editor extension wrapped in its context; the text unchanged
 * when it is not wrapped, "" when the wrapper holds no request. The context itself is dropped: the
 * record has no place for a turn's metadata.
 */
export function withoutIdeContext(text: string): string {
  const t = leadingTrimmed(text);
  if (!t.startsWith(ideContextHeading)) return text;
  const at = t.indexOf(`\n${ideRequestHeading}`);
  if (at === -1) return '';
  return t.slice(at + 1 + ideRequestHeading.length);
}

function partText(part: unknown): string | undefined {
  if (typeof part === 'string') return part;
  if (!isObject(part)) return undefined;
  const type = str(part, 'type');
  if (type !== 'input_text' && type !== 'text' && type !== 'output_text') return undefined;
  return str(part, 'text');
}

/**
 * The typed text of a `response_item` user message. When the message carries
 * `content_item_kinds` aligned with its parts, the tag decides; otherwise the prefix list does.
 */
export function userTextOfMessage(payload: JsonObject): UserText {
  const content = payload.content;
  const parts = typeof content === 'string' ? [content] : (asArray(content) ?? []);
  const kinds = asArray((payload.internal_chat_message_metadata_passthrough as JsonObject | undefined)?.content_item_kinds);
  const aligned = kinds !== undefined && kinds.length === parts.length ? kinds : undefined;
  const allTyped = kinds !== undefined && kinds.length > 0 && kinds.every((k) => k === typedKind);
  const kept: string[] = [];
  let aborted = false;
  for (let i = 0; i < parts.length; i++) {
    const t = partText(parts[i]);
    if (t === undefined || t === '') continue;
    if (leadingTrimmed(t).startsWith(abortMarker)) {
      aborted = true;
      continue;
    }
    if (aligned !== undefined) {
      if (aligned[i] === typedKind) kept.push(withoutIdeContext(t));
    } else if (allTyped || !isMachinery(t)) {
      kept.push(withoutIdeContext(t));
    }
  }
  return {
    text: kept
      .filter((k) => k.trim() !== '')
      .join('\n')
      .trim(),
    aborted,
  };
}

/** The typed text of an `event_msg` user_message (one string; older builds also tag a `kind`). */
export function userTextOfEvent(payload: JsonObject): UserText {
  const message = str(payload, 'message') ?? '';
  // 0.3x builds tagged injected messages `kind: "user_instructions" | "environment_context"`.
  const kind = str(payload, 'kind');
  if (kind !== undefined && kind !== 'plain') return { text: '', aborted: false };
  if (leadingTrimmed(message).startsWith(abortMarker)) return { text: '', aborted: true };
  if (isMachinery(message)) return { text: '', aborted: false };
  return { text: withoutIdeContext(message).trim(), aborted: false };
}
