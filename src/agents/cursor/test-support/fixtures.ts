// Test fixtures: Cursor agent transcripts in the shape jcontini/agentos-community's reader documents
// (`{role, message: {content: [{type: "text", text}]}}`, prompts inside `<user_query>`).
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export type CursorLineFixture = { role: 'user' | 'assistant'; message: { content: { type: string; text?: string }[] } };

export const user = (typed: string, context = ''): CursorLineFixture => ({
  role: 'user',
  message: { content: [{ type: 'text', text: `${context}<user_query>\n${typed}\n</user_query>` }] },
});
export const assistant = (text: string): CursorLineFixture => ({ role: 'assistant', message: { content: [{ type: 'text', text }] } });

/** Writes `<home>/projects/<project>/agent-transcripts/<id>/<id>.jsonl`; answers its path. */
export async function writeTranscript(home: string, project: string, id: string, lines: readonly CursorLineFixture[]): Promise<string> {
  const dir = join(home, 'projects', project, 'agent-transcripts', id);
  await mkdir(dir, { recursive: true });
  const path = join(dir, `${id}.jsonl`);
  await writeFile(path, lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
  return path;
}
