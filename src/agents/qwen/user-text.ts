// What the person typed in a Qwen Code user record, with the machinery Qwen Code adds removed.
import { str } from '../../json/narrow.js';
import type { QwenRecord } from './chat-record.js';

/** Qwen Code (like Gemini CLI) appends the files an `@path` pulled in after this marker line. */
const referencedFilesMarker = '\n--- Content from referenced files ---';

/** User records that are Qwen Code speaking to the model on its own: shown as events, never as prompts. */
const injectedSubtypes = new Set(['notification', 'cron', 'goal_runtime']);

export type UserKind = 'prompt' | 'injected';

/**
 * The typed text: `systemPayload.displayText` when recorded (what the prompt box held, before hook
 * context and `@` expansion), else the text parts without the expanded `@` files.
 */
export function typedText(r: QwenRecord): string {
  const shown = str(r.systemPayload, 'displayText');
  if (shown !== undefined && shown.trim() !== '') return shown.trim();
  const full = r.texts.join('');
  const cut = full.indexOf(referencedFilesMarker);
  return (cut === -1 ? full : full.slice(0, cut)).trim();
}

export function userKind(r: QwenRecord): UserKind {
  return injectedSubtypes.has(r.subtype ?? '') ? 'injected' : 'prompt';
}
