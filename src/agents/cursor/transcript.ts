// One Cursor transcript read into turns: user prompts as typed (the `<user_query>` part; a user line
// without one is context Cursor added, not typed), assistant text. Lines name no time.
import { forEachJsonObject } from '../../fs/read-jsonl.js';
import { arr, asObject, obj, str, type JsonObject } from '../../json/narrow.js';

export interface CursorLine {
  /** 1-based line number: the record id (lines carry no id of their own). */
  line: number;
  role: 'user' | 'assistant';
  text: string;
}

const userQuery = /<user_query>\s*([\s\S]*?)\s*<\/user_query>/;

function textOf(line: JsonObject): string {
  const parts: string[] = [];
  for (const item of arr(obj(line, 'message'), 'content') ?? []) {
    const o = asObject(item);
    if (str(o, 'type') === 'text') parts.push(str(o, 'text') ?? '');
  }
  return parts.join('\n');
}

/** What a line says, or null when it says nothing a person typed or read (or is not a message). */
export function readLine(line: JsonObject, n: number): CursorLine | null | undefined {
  const role = str(line, 'role');
  if ((role !== 'user' && role !== 'assistant') || arr(obj(line, 'message'), 'content') === undefined) return undefined;
  const text = textOf(line);
  if (role === 'user') {
    const typed = userQuery.exec(text)?.[1]?.trim();
    return typed === undefined || typed === '' ? null : { line: n, role, text: typed };
  }
  const said = text.trim();
  return said === '' ? null : { line: n, role, text: said };
}

/**
 * The transcript's lines that say something. With `texts` false (a summary, which keeps only the
 * first ask) every line after the first user line keeps its role but not its text: a scan then holds
 * no session's texts while it reads.
 */
export async function readTranscript(path: string, texts = true): Promise<{ lines: CursorLine[]; badLines: number }> {
  const lines: CursorLine[] = [];
  let bad = 0;
  let asked = false;
  const r = await forEachJsonObject(path, (line, info) => {
    const read = readLine(line, info.line);
    if (read === undefined) bad++;
    else if (read !== null) {
      if (!texts && asked) read.text = '';
      else if (read.role === 'user') asked = true;
      lines.push(read);
    }
  });
  return { lines, badLines: bad + r.badLines + (r.tornTail ? 1 : 0) };
}
