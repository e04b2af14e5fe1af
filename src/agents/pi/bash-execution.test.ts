// A command the person ran with `!` (Pi's `bashExecution` message) is their own action: it stays in
// the record as a user turn naming the command, as Claude Code's `!` commands do, and in the index.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/temp.js';
import { piReader } from './index.js';
import { piMessages } from './messages.js';
import { readPiFile } from './session-file.js';
import { defaultPiBounds } from './bounds.js';
import { assistant, header, iso, t0, user, writePiFile } from './test-support/pi.js';

const id = '0199aaaa-bbbb-7ccc-8ddd-eeeeeeeeeeee';

/** As Pi writes it: a message entry with role `bashExecution`, the command, its output and exit code. */
function bashExecution(entryId: string, parentId: string, command: string, output: string, s: number) {
  return {
    type: 'message',
    id: entryId,
    parentId,
    timestamp: iso(s),
    message: { role: 'bashExecution', command, output, exitCode: 0, cancelled: false, truncated: false, timestamp: t0 + s * 1000 },
  };
}

describe('pi `!` commands', () => {
  it('keeps a bashExecution as a user turn naming the command, shown and indexed', async () => {
    const home = join(await tempDir(), '.pi', 'agent');
    await writePiFile(home, `2026-04-01T09-00-00-000Z_${id}.jsonl`, [
      header(id),
      user('e1', null, 'set up the project', 1),
      assistant('e2', 'e1', 2, { text: 'Ready.' }),
      bashExecution('e3', 'e2', 'npm test -- --run', 'FAIL src/a.test.ts\n1 failed', 3),
      user('e4', 'e3', 'what did I just run?', 4),
      assistant('e5', 'e4', 5, { text: 'You ran the tests; one failed.' }),
    ]);
    const [session] = (await piReader.discover(home)).sessions;
    if (session === undefined) throw new Error('no session');
    const parsed = await piReader.parse(session, { detail: 'full' });
    expect(parsed.record?.turns.map((t) => [t.role, t.text, t.at])).toEqual([
      ['user', 'set up the project', iso(1)],
      ['assistant', 'Ready.', iso(2)],
      ['user', '! npm test -- --run', iso(3)],
      ['user', 'what did I just run?', iso(4)],
      ['assistant', 'You ran the tests; one failed.', iso(5)],
    ]);
    const extract = await piReader.messages?.extract(session, null);
    expect(extract?.records.map((r) => [r.role, r.text])).toContainEqual(['user', '! npm test -- --run']);
    const read = await readPiFile(session.path, defaultPiBounds);
    if (!read.ok) throw new Error(read.reason);
    expect([...piMessages(read.file.entries)].map((m) => m.text)).toContain('! npm test -- --run');
  });
});
