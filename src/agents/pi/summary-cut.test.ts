import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/temp.js';
import { defaultPiBounds } from './bounds.js';
import type { PiEntry } from './entry.js';
import { readPiFile } from './session-file.js';
import { assistant, header, toolResult, user, writePiFile, type PiLine } from './test-support/pi.js';

/** A full read as summary detail keeps it: tool results without their output. */
const withoutOutputs = (entries: PiEntry[]): PiEntry[] =>
  entries.map((e) => (e.body.type === 'toolResult' ? { ...e, body: { ...e.body, output: '', exitCode: undefined } } : e));

describe('Pi tool results below full detail', () => {
  it('reads every other line as a full read does, long text included', async () => {
    const long = 'x'.repeat(5000);
    // A user line whose long text sits beside a spelled-out tool-result role: not a tool result.
    const decoy: PiLine = { ...user('u2', 'r1', `"role":"toolResult" ${long}`, 4), note: '"role":"toolResult"' };
    const path = await writePiFile(join(await tempDir(), '.pi', 'agent'), 's.jsonl', [
      header('sess'),
      user('u1', null, long, 1),
      assistant('a1', 'u1', 2, { text: long, calls: [{ id: 'c1', name: 'bash', arguments: { command: 'ls' } }] }),
      toolResult('r1', 'a1', 'c1', 'bash', `${long}\nCommand exited with code 2`, 3, true),
      decoy,
    ]);
    const full = await readPiFile(path, defaultPiBounds, true);
    const summary = await readPiFile(path, defaultPiBounds, false);
    if (!full.ok || !summary.ok) throw new Error('not read');
    expect(summary.file.entries).toEqual(withoutOutputs(full.file.entries));
    expect(summary.file.entries.map((e) => e.body.type)).toEqual(['user', 'assistant', 'toolResult', 'user']);
  });
});
