import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Throttled } from './freshness.js';
import { windowText } from './window.js';

const bytes = (s: string): number => Buffer.byteLength(s, 'utf8');

describe('windowText', () => {
  it('returns text that fits whole', () => {
    expect(windowText('# a\n\nb\n', 2048, null, 'h')).toEqual({
      text: '# a\n\nb\n',
      total_bytes: 7,
      left_out_before: 0,
      left_out_after: 0,
    });
  });

  it('never passes the budget, keeps the anchor’s line, and its counts add up (property)', () => {
    const line = fc.string({ unit: 'grapheme', maxLength: 200 }).map((s) => s.replace(/\n/g, ' '));
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 400 }), fc.nat(), fc.integer({ min: 2048, max: 8192 }), (lines, pick, max) => {
        const text = lines.join('\n');
        const i = pick % lines.length;
        const anchor = bytes(lines.slice(0, i).join('\n')) + (i > 0 ? 1 : 0);
        const w = windowText(text, max, anchor, 'call again');
        if (bytes(w.text) > max) return false;
        if (w.left_out_before + w.left_out_after === 0) return w.text === text;
        const kept = w.total_bytes - w.left_out_before - w.left_out_after;
        const body = Buffer.from(text, 'utf8').toString('utf8', w.left_out_before, w.left_out_before + kept);
        return w.text.includes(body) && (bytes(lines[i] ?? '') > max / 2 || body.includes(lines[i] ?? ''));
      }),
    );
  });
});

describe('Throttled', () => {
  it('refreshes before first use, shares a refresh in flight, and later refreshes in the background', async () => {
    let now = 0;
    let runs = 0;
    const pending: (() => void)[] = [];
    const release = (): void => pending.shift()?.();
    const t = new Throttled(
      () => new Promise<number>((resolve) => pending.push(() => resolve(++runs))),
      () => now,
      10_000,
    );
    const first = Promise.all([t.get(), t.get()]);
    release();
    expect(await first).toEqual([1, 1]);
    now = 9_999;
    expect(await t.get()).toBe(1);
    expect(runs).toBe(1);
    now = 10_000;
    // Stale: answered from the last refresh at once, while the next one runs.
    expect(await t.get()).toBe(1);
    release();
    await new Promise((r) => setImmediate(r));
    expect(await t.get()).toBe(2);
  });

  it('peeks without waiting', () => {
    const t = new Throttled(
      async () => 1,
      () => 0,
    );
    expect(t.peek()).toBeNull();
  });
});
