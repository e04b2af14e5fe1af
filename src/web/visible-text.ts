// Log text made safe to look at: control characters (ANSI escapes included) become visible symbols,
// so an escape sequence in tool output is read, never obeyed or silently swallowed.

// Everything below U+0020 except tab and newline, plus DEL and the C1 range.
const controls = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** `text` with each control character shown as its Unicode control picture (ESC → ␛, BEL → ␇). */
export function visibleText(text: string): string {
  return text.replace(controls, (c) => {
    const code = c.charCodeAt(0);
    if (code < 0x20) return String.fromCharCode(0x2400 + code);
    if (code === 0x7f) return '\u2421';
    return `\\x${code.toString(16)}`;
  });
}
