// Reading one run out of a history file: the next run's header ends it wherever the read chunks
// happen to split the file (the first chunk is 64 KiB, then 128 KiB).
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/temp.js';
import { findRuns, readRun } from './history-file.js';
import { header, user } from './test-support/history.js';

describe('readRun', () => {
  // The run's text ends with the newline that opens the next header; put that newline on each side
  // of the first chunk's edge (64 KiB from the run's start) and of the second's (64 + 128 KiB).
  const edges = [65536, 65536 + 131072];
  const cases = edges.flatMap((edge) => [-30, -25, -24, -2, -1, 0, 1].map((d) => edge + d));
  it.each(cases)('stops at the next run when its header starts at byte %i of the run', async (at) => {
    const dir = await tempDir();
    const file = join(dir, '.aider.chat.history.md');
    const first = header('2026-05-02 13:55:39').slice(1);
    const fill = user('x'.repeat(Math.max(0, at - first.length - 20)));
    const body = (first + fill).padEnd(at, 'y');
    const next = `${header('2026-05-03 08:00:00')}${user('the second run')}`;
    await writeFile(file, `\n${body}${next}`);
    const { runs } = findRuns(file);
    expect(runs.map((r) => r.stamp)).toEqual(['2026-05-02 13:55:39', '2026-05-03 08:00:00']);
    const read = readRun(file, runs[0]?.offset ?? -1);
    expect(read.clipped).toBe(false);
    // (Lengths and the next header's absence, not the text: a failure would print 200 KiB.)
    expect(read.text.includes('2026-05-03')).toBe(false);
    expect(read.text.length).toBe(body.length + 1);
    expect(read.text.endsWith('y\n')).toBe(true);
  });
});
