// The one sanitiser for human-readable output: text from a log never reaches a terminal (or a
// Markdown file) as control characters; escape sequences, BEL and BiDi overrides show as `\x1b`,
// `\x07`, `\u202e`. Applied by the CLI's output writer, so no command can forget it.
import { controlCharPattern } from '../text/control-chars.js';
import type { Output } from './context.js';

/**
 * Colour and weight travel through rendering as Unicode noncharacters (reserved for a program's
 * internal use) and become SGR sequences only here, after the text around them is made safe; so
 * a renderer never needs to escape the log text it styles, and no log text becomes a raw escape.
 */
export const styleMarks = {
  bold: '\ufdd0',
  dim: '\ufdd1',
  /** Ends bold and dim. */
  normal: '\ufdd2',
  accent: '\ufdd3',
  /** Ends the accent colour. */
  defaultColour: '\ufdd4',
} as const;

const sgr: Record<string, string> = {
  [styleMarks.bold]: '\u001b[1m',
  [styleMarks.dim]: '\u001b[2m',
  [styleMarks.normal]: '\u001b[22m',
  [styleMarks.accent]: '\u001b[36m',
  [styleMarks.defaultColour]: '\u001b[39m',
};

/**
 * The control characters (text/control-chars.ts), the noncharacters the style marks are drawn from,
 * and the lone surrogates U+DC80–U+DCFF a file name that is not UTF-8 is carried in (fs/byte-path.ts),
 * shown as the byte each stands for.
 */
const unsafe = new RegExp(`${controlCharPattern}|[\\ufdd0-\\ufdef]|(?<![\\ud800-\\udbff])[\\udc80-\\udcff]`, 'g');
const anyUnsafe = new RegExp(unsafe.source);

function visible(c: string): string {
  const code = c.charCodeAt(0);
  const byte = code >= 0xdc80 && code <= 0xdcff ? code - 0xdc00 : code;
  return byte < 0x100 ? `\\x${byte.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * Text safe to print: every control character a log may hold becomes a visible escape. With
 * `styles`, the style marks become their SGR sequences (a terminal that shows colour); without,
 * they too are shown escaped, as any other stray character would be.
 *
 * @example escapeControls('a\u001b]0;title\u0007b', false) // 'a\\x1b]0;title\\x07b'
 */
export function escapeControls(text: string, styles: boolean): string {
  if (!anyUnsafe.test(text)) return text;
  return text.replace(unsafe, (c) => (styles ? (sgr[c] ?? visible(c)) : visible(c)));
}

/** An output whose every `write` is sanitised; `control` (agentlog's own sequences) passes as is. */
export function safeOutput(out: Output, styles: boolean): Output {
  return {
    isTTY: out.isTTY,
    write: (text) => out.write(escapeControls(text, styles)),
    control: (sequence) => out.control(sequence),
  };
}
