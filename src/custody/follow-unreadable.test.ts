// tail --follow on a transcript that exists but cannot be opened ends with the reason after the
// grace, instead of retrying forever with no message.
import { chmod } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { claudeHome, jsonlReader, line, writeSession } from './test-support/homes.js';

describe('following an unopenable transcript', () => {
  it.skipIf(process.getuid?.() === 0)('ends with an error that names the file once the grace is over', async () => {
    const t = await claudeHome();
    const reader = jsonlReader();
    const path = await writeSession(t.claude, 's1', [line(1), line(2)]);
    const catalog = await t.catalog({ agents: [{ reader, homes: [t.claude] }] });
    const page = await catalog.lastEntries('s1', 10);
    await chmod(path, 0o000);
    const stop = new AbortController();
    const it = catalog
      .follow('s1', { from: page.newer, signal: stop.signal, pollMs: 20, missingGraceMs: 200, watch: false })
      [Symbol.asyncIterator]();
    const started = Date.now();
    const outcome = await Promise.race([
      it.next().then(
        () => 'yielded',
        (error: unknown) => error,
      ),
      new Promise((r) => setTimeout(() => r('still retrying'), 5_000)),
    ]);
    stop.abort();
    expect(outcome).toMatchObject({ code: 'IOError', kind: 'failed' });
    expect(String((outcome as Error).message)).toContain(path);
    expect(Date.now() - started).toBeLessThan(4_000);
  });
});
