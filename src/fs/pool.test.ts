import { describe, expect, it } from 'vitest';
import { mapPool } from './pool.js';

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('mapPool', () => {
  it('keeps input order and never runs more than n at once', async () => {
    let running = 0;
    let peak = 0;
    const out = await mapPool([5, 1, 4, 2, 3], 2, async (x, i) => {
      running++;
      peak = Math.max(peak, running);
      await tick(x * 3);
      running--;
      return `${i}:${x}`;
    });
    expect(out).toEqual(['0:5', '1:1', '2:4', '3:2', '4:3']);
    expect(peak).toBe(2);
    expect(await mapPool([], 4, async () => 1)).toEqual([]);
  });

  it('starts nothing after its signal aborts, lets the in-flight finish, then throws', async () => {
    const ac = new AbortController();
    const started: number[] = [];
    const finished: number[] = [];
    const run = mapPool(
      [0, 1, 2, 3, 4, 5],
      2,
      async (x) => {
        started.push(x);
        if (x === 1) ac.abort(new Error('stop'));
        await tick(10);
        finished.push(x);
      },
      ac.signal,
    );
    await expect(run).rejects.toThrow('stop');
    expect(started).toEqual([0, 1]);
    expect(finished.sort()).toEqual([0, 1]);
  });
});
