// A summary's read of a Cursor transcript (lines after the first ask told from their first bytes)
// against the full read: the same turns, in the same order, with the same lines counted bad.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/temp.js';
import { assistant, user } from './test-support/fixtures.js';
import { readTranscript } from './transcript.js';

/** Texts that open every way a skim must get right: blank, escaped, non-ASCII spaces, plain. */
const texts = fc.constantFrom(
  ...['', ' ', '\n', '\nDone.', '\t x', '\u00a0', '\u00a0x', '\u3000', 'é', 'OK', '"quoted"', '\\path', ' x '],
  ...['<b>', 'x\\', 'x\\"', 'a"b', 'a</user_query>b', 'a\n</user_query>'],
);

const contexts = fc.constantFrom(
  '<open_files>"a.ts", C:\\x</open_files>\n',
  '<user_query></user_query>\n',
  '<user_query>\nfirst</user_query>\n',
  '<user_query>\n',
  'see </user_query> and <user_query\n',
  '\u00a0<user_info>é</user_info>\n',
);

const line = fc.oneof(
  texts.map((t) => JSON.stringify(assistant(t))),
  texts.map((t) => JSON.stringify(user(t))),
  texts.map((t) => JSON.stringify(user(t, '<user_info>OS: linux</user_info>\n'))),
  // Context before the prompt that a skim of its bytes could misread: quotes and escapes, a blank
  // or a whole earlier prompt (the first tag is the prompt), a tag spelt with an escape.
  fc.tuple(texts, contexts).map(([t, c]) => JSON.stringify(user(t, c))),
  fc.tuple(texts, contexts).map(([t, c]) => JSON.stringify(user(t, c)).replace('<', '\\u003c')),
  // Context only; the tag escaped as a Go writer would; another key order.
  texts.map((t) =>
    JSON.stringify({ role: 'user', message: { content: [{ type: 'text', text: `<system_reminder>${t}</system_reminder>` }] } }),
  ),
  texts.map((t) => JSON.stringify(user(t)).replaceAll('<', '\\u003c')),
  texts.map((t) => JSON.stringify({ message: { content: [{ type: 'text', text: t }] }, role: 'assistant' })),
  texts.map((t) => JSON.stringify({ role: 'assistant', message: { content: [{ type: 'tool_use' }, { type: 'text', text: t }] } })),
  // A prompt with no newline after its tag; a line ending in a carriage return.
  texts.map((t) => JSON.stringify({ role: 'user', message: { content: [{ type: 'text', text: `<user_query>${t}</user_query>` }] } })),
  texts.map((t) => `${JSON.stringify(user(t))}\r`),
  // The closing tag in a second item: text (still a prompt) or not (then context).
  fc.tuple(texts, fc.constantFrom('text', 'tool')).map(([t, type]) =>
    JSON.stringify({
      role: 'user',
      message: {
        content: [
          { type: 'text', text: `<user_query>\n${t}` },
          { type, text: '</user_query>' },
        ],
      },
    }),
  ),
  fc.constantFrom('{"type":"summary"}', 'not json', '', '42'),
);

describe('readTranscript', () => {
  it('reads the same turns at summary detail as in full, texts after the first ask left out', async () => {
    const dir = await tempDir();
    await fc.assert(
      fc.asyncProperty(fc.array(line, { maxLength: 12 }), fc.boolean(), async (lines, newlineAtEnd) => {
        const path = join(dir, 't.jsonl');
        await writeFile(path, lines.join('\n') + (newlineAtEnd ? '\n' : ''));
        const full = await readTranscript(path, true);
        const summary = await readTranscript(path, false);
        expect(summary.badLines).toBe(full.badLines);
        expect(summary.lines.map((l) => [l.line, l.role])).toEqual(full.lines.map((l) => [l.line, l.role]));
        const firstAsk = (ls: typeof full.lines) => ls.find((l) => l.role === 'user')?.text;
        expect(firstAsk(summary.lines)).toBe(firstAsk(full.lines));
      }),
      { numRuns: 300 },
    );
  });
});
