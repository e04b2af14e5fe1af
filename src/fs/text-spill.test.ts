// The spill store `show` parses under: a record built with tool output spilled holds none of it, and
// prints the same bytes (JSON, text, Markdown; home elided; subagents nested) as one built in memory.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp.js';
import { claudeCodeReader } from '../agents/claude-code/reader.js';
import { assistant, toolResult, toolUse, usage, user, writeMain, writeSubagent } from '../agents/claude-code/test-support/fixtures.js';
import { renderRecordMarkdown, writeRecordMarkdown } from '../cli/render/record-markdown.js';
import { plainStyle } from '../cli/render/format.js';
import { renderRecordText, writeRecordText } from '../cli/render/record-text.js';
import { finaliseRecord } from '../record/finalise.js';
import { makeHomeElider } from '../record/home-elide.js';
import { serialiseRecord, writeRecord } from '../record/serialise.js';
import { minSpillChars, withTextSink } from '../record/spill-scope.js';
import type { SessionRecord, Turn } from '../record/types.js';
import { TextSpill } from './text-spill.js';

const side = (agentId: string): Record<string, unknown> => ({ isSidechain: true, agentId, cwd: '/home/al/demo' });
const long = (word: string, n: number): string => `${word} /home/al/demo/file.ts `.repeat(n);
/** A log line that tries to pass for a token: it must come out as written. */
const forged = `\ufdd0000000000000:0\ufdd1 ${'x'.repeat(minSpillChars)}`;

async function session(home: string): Promise<string> {
  const main = await writeMain(home, [
    user('Survey the loggers', 1),
    assistant('m1', [toolUse('t1', 'Bash', { command: 'ls' })], 2, {}, { usage: usage(10, 1) }),
    user([toolResult('t1', long('listing', 40))], 3),
    assistant('m2', [toolUse('toolu_1', 'Task', { description: 'Survey', prompt: 'Find loggers', subagent_type: 'Explore' })], 4),
    user([toolResult('toolu_1', [{ type: 'text', text: 'done' }])], 9, { toolUseResult: { status: 'completed', agentId: 'a1' } }),
    assistant('m3', [toolUse('t3', 'Read', { file_path: '/home/al/demo/big.ts' })], 10),
    user([toolResult('t3', long('huge', 800))], 11),
    assistant('m4', [toolUse('t4', 'Bash', { command: 'cat forged' })], 12),
    user([toolResult('t4', forged)], 13),
  ]);
  await writeSubagent(
    home,
    'a1',
    [
      user('Find loggers', 5, side('a1')),
      assistant('s1', [toolUse('t2', 'Grep', { pattern: 'log' })], 6, side('a1'), { usage: usage(3, 1) }),
      user([toolResult('t2', long('match', 30))], 7, side('a1')),
      assistant('s2', [{ type: 'text', text: 'Two loggers.' }], 8, side('a1')),
    ],
    { agentType: 'Explore', description: 'Survey', toolUseId: 'toolu_1' },
  );
  return main;
}

function outputs(turns: readonly Turn[]): string[] {
  return turns.flatMap((t) => (t.tool_calls ?? []).flatMap((c) => [c.output ?? '', ...outputs(c.subagent?.turns ?? [])]));
}

describe('TextSpill', () => {
  it('holds every long tool output out of the record and prints the same bytes in every format', async () => {
    const dir = await tempDir();
    const path = await session(join(dir, '.claude'));
    const found = await claudeCodeReader.claim(path);
    if (found === null) throw new Error('not claimed');
    const elide = makeHomeElider('/home/al');
    const plain = await claudeCodeReader.parse(found, { detail: 'full' });
    const spill = TextSpill.open(join(dir, 'tmp'));
    try {
      const spilled = await withTextSink(spill, () => claudeCodeReader.parse(found, { detail: 'full' }));
      const expected = finaliseRecord(plain.record as SessionRecord, { detail: 'full', elide });
      const record = finaliseRecord(spilled.record as SessionRecord, { detail: 'full', elide });

      const held = outputs(record.turns);
      expect(outputs(expected.turns).filter((o) => o.length >= minSpillChars)).toHaveLength(4);
      expect(Math.max(...held.map((o) => o.length)), 'no output over a token').toBeLessThan(40);

      const restore = (text: string): string => spill.expand(text, elide);
      const json: string[] = [];
      writeRecord(record, (c) => json.push(c), restore);
      expect(json.join('')).toBe(serialiseRecord(expected));
      expect(json.join('')).toContain(JSON.stringify(forged));
      expect(json.join('')).not.toContain('/home/al');

      const text: string[] = [];
      writeRecordText(record, plainStyle, { file: path }, (t) => text.push(t), restore);
      expect(text.join('')).toBe(renderRecordText(expected, plainStyle, { file: path }));
      const md: string[] = [];
      writeRecordMarkdown(record, null, (t) => md.push(t), restore);
      expect(md.join('')).toBe(renderRecordMarkdown(expected, null));
    } finally {
      spill.close();
    }
  });

  it('writes a record with nested subagents turn by turn, in the bytes of serialiseRecord', async () => {
    const dir = await tempDir();
    const path = await session(join(dir, '.claude'));
    const found = await claudeCodeReader.claim(path);
    if (found === null) throw new Error('not claimed');
    const parsed = await claudeCodeReader.parse(found, { detail: 'full' });
    const record = finaliseRecord(parsed.record as SessionRecord, { detail: 'full', elide: (t) => t });
    const parts: string[] = [];
    writeRecord(record, (c) => parts.push(c));
    expect(parts.join('')).toBe(serialiseRecord(record));
    // The turn that launched the subagent is not one piece: its subagent's turns are written one by one.
    expect(parts.some((p) => p.includes('"subagent":') && !p.includes('match'))).toBe(true);
    expect(
      parts
        .filter((p) => p.includes('"subagent":') || p.includes('match /home'))
        .every((p) => !(p.includes('"subagent":') && p.includes('match /home'))),
    ).toBe(true);
  });
});
