// The characters that act on a terminal instead of showing: one definition for the output
// sanitiser (which shows them escaped) and for names (which are stored without them).

/**
 * C0 controls except tab and newline, DEL, C1, the BiDi embedding, override and isolate controls
 * (U+202A–U+202E, U+2066–U+2069) and the direction marks (U+200E, U+200F, U+061C). A carriage
 * return counts only when no newline follows, so CRLF text still reads as lines.
 */
export const controlCharPattern =
  '[\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069]|\\r(?!\\n)';

const controls = new RegExp(controlCharPattern, 'g');

/** The text without control characters, and how many were removed. */
export function stripControls(text: string): { text: string; removed: number } {
  let removed = 0;
  const clean = text.replace(controls, () => {
    removed++;
    return '';
  });
  return { text: clean, removed };
}
