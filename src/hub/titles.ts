// Titles the hub gives what it stores (seed 003 "Find a session again"): a note whose title is only
// an id gets one read from the note itself (its first ask, else its issue or pull request, else its
// outcome), and a source's listing title is the session's first ask. Pure; no clock, no I/O.

export const titleMaxChars = 60;

/** `claude_code session 3f2a…`, `colonizer session a15f…`, a bare UUID/hex/ULID, the slug, or nothing. */
export function isIdShapedTitle(title: string, slug?: string): boolean {
  const t = title.trim();
  if (t === '' || (slug !== undefined && t === slug)) return true;
  if (/^(?:[\p{L}\p{N}_.-]+[ \t]+)?(?:session|colony)[ \t]+[0-9a-f][0-9a-f-]{5,}…?$/iu.test(t)) return true;
  return /^[0-9a-f][0-9a-f-]{7,}$/i.test(t) || /^[0-9A-HJKMNP-TV-Z]{26}$/.test(t);
}

/** Collapses whitespace and cuts to `max` code points, on a word boundary within the last 15, adding `…`. */
export function cutTitle(text: string, max = titleMaxChars): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const chars = [...flat];
  if (chars.length <= max) return flat;
  const head = chars.slice(0, max - 1);
  const space = head.lastIndexOf(' ');
  const cut = space >= max - 1 - 15 && space > 0 ? head.slice(0, space) : head;
  return `${cut.join('').trimEnd()}…`;
}

const labels: readonly [RegExp, number][] = [
  [/^(?:first ask|ask|user|prompt|you)$/i, 0],
  [/^issue$/i, 1],
  [/^(?:pull request|pr)$/i, 2],
  [/^outcome$/i, 3],
];

const pictograph = String.raw`(?:\p{Extended_Pictographic}\uFE0F?\s*)?`;
/** `User: text`, `**User:** text`, `- **Ask**: text`, `> User: text`. */
const inlineLabel = new RegExp(
  String.raw`^\s*(?:>\s*)?(?:[-*]\s+)?(?:\*\*|__)?\s*${pictograph}([A-Za-z][A-Za-z ]{0,20}?)\s*(?:\*\*|__)?\s*[:：]\s*(?:\*\*|__)?\s*(.*)$`,
  'u',
);
/** `## User` or `**User**` alone on its line, the text below it. */
const headingLabel = new RegExp(String.raw`^\s*(?:#{1,6}\s+|\*\*|__)\s*${pictograph}([A-Za-z][A-Za-z ]{0,20}?)\s*(?:\*\*|__)?\s*$`, 'u');

function rankOf(label: string): number | undefined {
  return labels.find(([re]) => re.test(label.trim()))?.[1];
}

const clean = (line: string): string =>
  line
    .replace(/^\s*(?:>\s*)+/, '')
    .replace(/^[-*]\s+/, '')
    .replace(/[*_`]+/g, '')
    .trim();

/**
 * What the note says it is about: the text under or after its first "User"/"Ask" label, else its
 * "Issue", "Pull request" or "Outcome" line; null when it names none.
 */
export function subjectOf(body: string): string | null {
  const lines = body.split(/\r?\n/);
  const found: (string | undefined)[] = [];
  let inFence = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    if (inFence) continue;
    const m = inlineLabel.exec(line) ?? headingLabel.exec(line);
    if (m === null) continue;
    const rank = rankOf(m[1] ?? '');
    if (rank === undefined || found[rank] !== undefined) continue;
    let text = clean(m[2] ?? '');
    for (let j = i + 1; text === '' && j < lines.length && j <= i + 5; j++) {
      if (/^\s*(```|~~~|#)/.test(lines[j] as string)) break;
      text = clean(lines[j] as string);
    }
    if (text !== '') found[rank] = text;
  }
  return found.find((t) => t !== undefined) ?? null;
}

/** The title to store: the one given, unless it is only an id and the note names its subject. */
export function noteTitle(given: string, body: string, project: string | null, slug: string): string {
  if (!isIdShapedTitle(given, slug)) return given.trim();
  const subject = subjectOf(body);
  if (subject === null) return given.trim() === '' ? slug : given.trim();
  return cutTitle(project === null ? subject : `${project} · ${subject}`);
}

/** A session record's listing title: its first user turn, cut; else the path it was filed under. */
export function sourceTitle(record: { turns?: unknown }, path: string): string {
  const turns = Array.isArray(record.turns) ? record.turns : [];
  for (const t of turns) {
    const turn = t as { role?: unknown; text?: unknown };
    if (turn.role === 'user' && typeof turn.text === 'string' && turn.text.trim() !== '') return cutTitle(turn.text, 80);
  }
  return cutTitle(path, 80);
}
