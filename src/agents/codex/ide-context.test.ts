// Codex from an editor (the VS Code extension) wraps the request in its IDE context: the user turn
// and the index keep only what was typed after "## My request for Codex:".
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/temp.js';
import { codexReader } from './reader.js';
import { Rollout, writeRollout } from './test-support/rollout-fixture.js';
import { userTextOfEvent, userTextOfMessage } from './user-text.js';

const id = '019a0000-0000-7000-8000-0000000000ide';

const ideWrapped = (typed: string): string =>
  [
    '# Context from my IDE setup:',
    '',
    '## Active file: src/parser.ts',
    '',
    '## Active selection of the file:',
    'export function parse(',
    '',
    '## Open tabs:',
    '- parser.ts: src/parser.ts',
    '- lexer.ts: src/lexer.ts',
    '',
    '## My request for Codex:',
    typed,
    '',
  ].join('\n');

describe('codex IDE context preamble', () => {
  it('keeps only the typed request of a wrapped message, in both lanes', () => {
    const text = ideWrapped('rename parse to parseModule\nand update the callers');
    expect(userTextOfMessage({ type: 'message', role: 'user', content: [{ type: 'input_text', text }] }).text).toBe(
      'rename parse to parseModule\nand update the callers',
    );
    expect(userTextOfEvent({ type: 'user_message', message: text }).text).toBe('rename parse to parseModule\nand update the callers');
    // A context block with no request in it is all machinery.
    expect(userTextOfEvent({ type: 'user_message', message: '# Context from my IDE setup:\n\n## Open tabs:\n- a.ts: a.ts\n' }).text).toBe(
      '',
    );
  });

  it('shows and indexes the typed request, not the editor context', async () => {
    const home = join(await tempDir(), '.codex');
    const r = new Rollout(id)
      .meta()
      .turnContext()
      .user(ideWrapped('why does the lexer skip tabs?'))
      .userEvent(ideWrapped('why does the lexer skip tabs?'))
      .assistant('It treats tabs as whitespace.');
    const path = await writeRollout(home, id, r);
    const session = await codexReader.claim(path);
    if (session === null) throw new Error('not claimed');
    const parsed = await codexReader.parse(session, { detail: 'full' });
    expect(parsed.record?.turns.map((t) => [t.role, t.text])).toEqual([
      ['user', 'why does the lexer skip tabs?'],
      ['assistant', 'It treats tabs as whitespace.'],
    ]);
    const extract = await codexReader.messages?.extract(session, null);
    expect(extract?.records.map((m) => [m.role, m.text])).toEqual([
      ['user', 'why does the lexer skip tabs?'],
      ['assistant', 'It treats tabs as whitespace.'],
    ]);
  });
});
