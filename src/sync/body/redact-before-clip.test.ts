// Seed 003: redaction of every string value happens *before* clipping. A secret that a clip would
// cut leaves no prefix of itself in what sync sends: the reader's clip (tool output, tool input, a
// message) and the summary level's cut of the first ask both come after redaction.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/temp.js';
import { claudeCodeReader } from '../../agents/claude-code/reader.js';
import { assistant, jsonl, toolResult, toolUse, usage, user, write } from '../../agents/claude-code/test-support/fixtures.js';
import { inputClip, messageClip, outputClip } from '../../record/clip.js';
import { summaryAskChars } from '../../record/finalise.js';
import type { Detail } from '../../record/types.js';
import { cachedRealPath } from '../settings.js';
import { prepareSession } from '../prepare.js';

// Built from parts so no scanner takes this file for a leak.
const secret = `${'gh'}p_${'aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z5A'}`;
/** The first characters of the secret a clip at the boundary would keep (under the fragment scrub's 12). */
const prefix = secret.slice(0, 9);

/** `before` bytes of filler, then the secret, then filler to `total` bytes. */
function straddling(before: number, total: number): string {
  const head = '#'.repeat(before);
  return head + secret + ' ' + 'y '.repeat((total - before - secret.length) / 2);
}

const where = (repo: string) => ({ cwd: repo, sessionId: '12345678-1111-4222-8333-444444444444' });

describe('redaction before clipping', () => {
  it('a secret cut by the tool output, tool input and message clips leaves no prefix', async () => {
    const lines = (repo: string): unknown[] => [
      user('Look at this.', 1, where(repo)),
      assistant(
        'm1',
        [toolUse('t1', 'Bash', { command: straddling(inputClip.half - prefix.length - 13, inputClip.whole + 1000) })],
        2,
        where(repo),
        { usage: usage(1, 1) },
      ),
      user([toolResult('t1', straddling(outputClip.half - prefix.length, outputClip.whole + 1000))], 3, where(repo)),
      assistant('m2', [{ type: 'text', text: 'ok' }], 4, where(repo), { usage: usage(1, 1) }),
      user(straddling(messageClip.half - prefix.length, messageClip.whole + 1000), 5, where(repo)),
      assistant('m3', [{ type: 'text', text: 'ok' }], 6, where(repo), { usage: usage(1, 1) }),
    ];
    const out = await bodyOfRepo(lines, 'full');
    expect(out.body).toContain('bytes omitted');
    expect(out.body).not.toContain(prefix);
    // The token stands where the secret was (a clip may cut the token itself: it hides nothing).
    expect(out.body).toContain('[REDACTED');
    expect(out.redactions).toBeGreaterThanOrEqual(3);
  });

  it("the summary level's cut of the first ask comes after redaction", async () => {
    const lines = (repo: string): unknown[] => [
      user(straddling(summaryAskChars - prefix.length, summaryAskChars + 200), 1, where(repo)),
      assistant('m1', [{ type: 'text', text: 'ok' }], 2, where(repo), { usage: usage(1, 1) }),
    ];
    const out = await bodyOfRepo(lines, 'summary');
    expect(out.body).not.toContain(prefix);
  });
});

/** What sync would send for a Claude Code session whose lines name the repository the allowlist opts in. */
async function bodyOfRepo(lines: (repo: string) => unknown[], detail: Detail): Promise<{ body: string; redactions: number }> {
  const root = await tempDir();
  const repo = join(root, 'repo');
  const claude = join(root, '.claude');
  const id = '12345678-1111-4222-8333-444444444444';
  const path = await write(join(claude, 'projects', 'p', `${id}.jsonl`), jsonl(lines(repo)));
  const session = await claudeCodeReader.claim(path);
  if (session === null) throw new Error('not claimed');
  const prepared = await prepareSession(claudeCodeReader, session, {
    allow: new Map([[repo, detail]]),
    real: cachedRealPath(),
    homes: ['/home/nobody'],
    cache: null,
    candidates: [repo],
  });
  if (prepared.kind !== 'ready') throw new Error(`not ready: ${JSON.stringify(prepared)}`);
  return { body: prepared.body, redactions: prepared.redactions };
}
