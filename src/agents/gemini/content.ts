// Text out of Gemini's content values: a string, one part, or a list of parts (`{text}`, function
// calls and responses, inline data), as the chat recording stores `PartListUnion`.
import { asObject, str } from '../../json/narrow.js';

/** Joins the text parts of a content value; non-text parts (files, function calls) give nothing. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  const list = Array.isArray(content) ? content : [content];
  const pieces: string[] = [];
  for (const item of list) {
    if (typeof item === 'string') {
      pieces.push(item);
      continue;
    }
    const part = asObject(item);
    // A part flagged `thought` is the model's reasoning, which the recording keeps in `thoughts`.
    if (part === undefined || part.thought === true) continue;
    const t = str(part, 'text');
    if (t !== undefined) pieces.push(t);
  }
  return pieces.join('');
}

/** Gemini CLI appends the files an `@path` reference pulled in after this marker line. */
const referencedFilesMarker = '\n--- Content from referenced files ---';

/** What the person typed: `displayContent` when recorded, else the content without expanded `@` files. */
export function userText(displayContent: unknown, content: unknown): string {
  const shown = displayContent === undefined ? '' : contentText(displayContent);
  if (shown.trim() !== '') return shown.trim();
  const full = contentText(content);
  const cut = full.indexOf(referencedFilesMarker);
  return (cut === -1 ? full : full.slice(0, cut)).trim();
}

const continuePrompt = /^(System: )?Please continue\.$/;

/**
 * True for the prompt Gemini CLI sends on its own when the model stopped mid-task: the text
 * "System: Please continue." (or without "System: "), or any user message whose recorded
 * `displayContent` holds parts but no text (a tool response shown in place of typed text).
 */
export function isInjectedContinue(displayContent: unknown, text: string): boolean {
  if (continuePrompt.test(text.trim())) return true;
  if (displayContent === undefined || displayContent === null || typeof displayContent === 'string') return false;
  const parts = Array.isArray(displayContent) ? displayContent : [displayContent];
  return parts.length > 0 && contentText(displayContent).trim() === '';
}
