import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/temp.js';
import { clip, clipMessage, messageClip } from '../../record/clip.js';
import { parseIntendantSession } from './parse-session.js';
import { refusalOf, SessionDir } from './session-dir.js';
import { FixtureSession, tod } from './test-support/fixture.js';

const secret = 'TOP SECRET: outside the session folder';

describe('SessionDir span reads', () => {
  it('clips a long span exactly as clip() clips the whole text, reading only head and tail', async () => {
    const dir = await tempDir();
    const rule = { whole: 64, half: 16 };
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme', maxLength: 120 }), fc.string({ maxLength: 5 }), async (body, before) => {
        const file = join(dir, 'span.txt');
        await writeFile(file, `${before}\n${body}`);
        const offset = Buffer.byteLength(before) + 1;
        const read = await new SessionDir(dir).readSpan('span.txt', offset, Buffer.byteLength(body), rule);
        expect(read).toEqual({ ok: true, text: clip(body, rule) });
      }),
      { numRuns: 100 },
    );
  });

  it('refuses references that are absolute or climb out, before touching the disk', () => {
    expect(refusalOf('../x')).toMatch(/climbs out/);
    expect(refusalOf('turns/../../x')).toMatch(/climbs out/);
    expect(refusalOf('turns\\..\\x')).toMatch(/climbs out/);
    expect(refusalOf('/etc/passwd')).toMatch(/absolute/);
    expect(refusalOf('C:\\x')).toMatch(/absolute/);
    expect(refusalOf('turns/turn_001_model.txt')).toBeUndefined();
  });
});

describe('intendant sidecars', () => {
  it('reads each response of a turn from its own span of the appended sidecar, a long one clipped', async () => {
    const home = join(await tempDir(), '.intendant');
    const s = await FixtureSession.create(home, 'spans', { project_root: '/w', task: 't' });
    const big = `${'é'.repeat(100_000)}middle${'ü'.repeat(100_000)}`;
    s.laneUser(1_000, 1, 'go');
    await s.laneAssistant(2_000, 1, 2, 'first part');
    await s.laneAssistant(3_000, 1, 3, 'second part');
    await s.laneAssistant(4_000, 1, 4, big);
    await s.save();
    const p = await parseIntendantSession(s.dir, { detail: 'full' });
    expect(p.problems).toEqual([]);
    const texts = p.record?.turns.map((t) => t.text);
    expect(texts?.slice(0, 3)).toEqual(['go', 'first part', 'second part']);
    expect(Buffer.byteLength(big)).toBeGreaterThan(messageClip.whole);
    expect(texts?.[3]).toBe(clipMessage(big));
  });

  it('refuses a reference that leaves the folder (../, absolute, symlinked file or folder) and reports it', async () => {
    const root = await tempDir();
    const outside = join(root, 'outside.txt');
    await writeFile(outside, secret);
    await mkdir(join(root, 'elsewhere'));
    await writeFile(join(root, 'elsewhere', 'turn_009_model.txt'), secret);
    const home = join(root, '.intendant');
    const s = await FixtureSession.create(home, 'escape', { project_root: '/w', task: 't' });
    // ../../../outside.txt from logs/escape/ is root/outside.txt.
    await symlink(outside, join(s.dir, 'turns', 'turn_003_model.txt'));
    await symlink(join(root, 'elsewhere'), join(s.dir, 'linked'));
    s.laneUser(1_000, 1, 'go');
    const refs = ['../../../outside.txt', outside, 'turns/turn_003_model.txt', 'linked/turn_009_model.txt', 'turns'];
    refs.forEach((file, i) => {
      const ms = 2_000 + i * 1_000;
      s.row({
        ts: tod(ms),
        ts_ms: ms,
        turn: 1,
        event: 'conversation_message',
        level: 'info',
        message: `preview ${i}`,
        data: {
          message_id: `m-${i}`,
          message_seq: 2 + i,
          model_bytes: secret.length,
          model_offset: 0,
          provenance: 'assistant',
          role: 'assistant',
        },
        file,
      });
    });
    await s.save();
    const p = await parseIntendantSession(s.dir, { detail: 'full' });
    expect(p.record?.turns.map((t) => t.text)).toEqual(['go', 'preview 0', 'preview 1', 'preview 2', 'preview 3', 'preview 4']);
    expect(JSON.stringify(p.record)).not.toContain('TOP SECRET');
    const reasons = p.problems.map((x) => x.reason);
    expect(p.problems.every((x) => x.kind === 'unreadable')).toBe(true);
    expect(reasons).toHaveLength(5);
    expect(reasons[0]).toMatch(/climbs out with "\.\."/);
    expect(reasons[1]).toMatch(/absolute file reference/);
    expect(reasons[2]).toMatch(/is a symlink/);
    expect(reasons[3]).toMatch(/leaves the session folder through a symlink/);
    expect(reasons[4]).toMatch(/not a regular file/);
    expect(reasons[0]).toMatch(/session\.jsonl line 2/);
  });

  it('keeps the preview and reports a missing sidecar once for all its rows', async () => {
    const home = join(await tempDir(), '.intendant');
    const s = await FixtureSession.create(home, 'missing', { project_root: '/w', task: 't' });
    s.laneUser(1_000, 1, 'go');
    for (const [i, seq] of [2, 3].entries()) {
      const ms = 2_000 + i;
      s.row({
        ts: tod(ms),
        ts_ms: ms,
        turn: 1,
        event: 'conversation_message',
        level: 'info',
        message: `preview ${seq}`,
        data: {
          message_id: `m-${seq}`,
          message_seq: seq,
          model_bytes: 10,
          model_offset: i * 11,
          provenance: 'assistant',
          role: 'assistant',
        },
        file: 'turns/turn_001_model.txt',
      });
    }
    await s.save();
    const p = await parseIntendantSession(s.dir, { detail: 'full' });
    expect(p.record?.turns.map((t) => t.text)).toEqual(['go', 'preview 2', 'preview 3']);
    expect(p.problems).toEqual([
      {
        path: join(s.dir, 'turns', 'turn_001_model.txt'),
        kind: 'unreadable',
        reason: 'missing file turns/turn_001_model.txt (session.jsonl line 2, and 1 more rows)',
      },
    ]);
  });

  it('reports a span that runs past the end of its sidecar', async () => {
    const home = join(await tempDir(), '.intendant');
    const s = await FixtureSession.create(home, 'short', { project_root: '/w', task: 't' });
    await s.sidecar('turns/turn_001_model.txt', 'tiny');
    s.row({
      ts: tod(1),
      ts_ms: 1,
      turn: 1,
      event: 'conversation_message',
      level: 'info',
      message: 'tiny but claimed long',
      data: { message_id: 'm', message_seq: 1, model_bytes: 400, model_offset: 0, provenance: 'assistant', role: 'assistant' },
      file: 'turns/turn_001_model.txt',
    });
    await s.save();
    const p = await parseIntendantSession(s.dir, { detail: 'full' });
    expect(p.record?.turns[0]?.text).toBe('tiny but claimed long');
    expect(p.problems[0]?.reason).toMatch(/runs past the end/);
  });
});
