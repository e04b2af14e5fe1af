// The message lane's timing contract: debounce, abort of the request in flight, stale answers
// dropped, one retry after a 429, idle under two characters.
import { describe, expect, it } from 'vitest';
import { type LaneAnswer, type LaneState, MessageLane } from './message-lane.js';

interface Call {
  query: string;
  signal: AbortSignal;
  resolve: (a: LaneAnswer<string>) => void;
}

function harness(debounceMs = 20) {
  const calls: Call[] = [];
  const states: LaneState<string>[] = [];
  const lane = new MessageLane<string>(
    (query, signal) => new Promise((resolve) => calls.push({ query, signal, resolve })),
    (s) => states.push(s),
    { debounceMs, minChars: 2, maxRetryWaitMs: 30 },
  );
  return { lane, calls, states };
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('MessageLane', () => {
  it('waits for the debounce and asks once for the last query typed', async () => {
    const { lane, calls } = harness();
    lane.input('wa');
    lane.input('wal');
    lane.input('walr');
    expect(calls).toHaveLength(0);
    await wait(40);
    expect(calls.map((c) => c.query)).toEqual(['walr']);
  });

  it('stays idle under two characters and cancels what was pending', async () => {
    const { lane, calls, states } = harness();
    lane.input('wa');
    lane.input('w');
    await wait(40);
    expect(calls).toHaveLength(0);
    expect(states.at(-1)).toEqual({ status: 'idle' });
  });

  it('aborts the request in flight and drops its late answer', async () => {
    const { lane, calls, states } = harness();
    lane.input('first');
    await wait(40);
    lane.input('second');
    expect(calls[0]?.signal.aborted).toBe(true);
    await wait(40);
    calls[0]?.resolve({ kind: 'ok', body: 'old' });
    calls[1]?.resolve({ kind: 'ok', body: 'new' });
    await wait(5);
    const done = states.filter((s) => s.status === 'done');
    expect(done).toEqual([{ status: 'done', query: 'second', body: 'new' }]);
  });

  it('retries once after a 429, then reports busy', async () => {
    const { lane, calls, states } = harness();
    lane.input('busy');
    await wait(40);
    calls[0]?.resolve({ kind: 'busy', retryAfterMs: 10 });
    await wait(50);
    expect(calls).toHaveLength(2);
    calls[1]?.resolve({ kind: 'busy', retryAfterMs: 10 });
    await wait(50);
    expect(calls).toHaveLength(2);
    expect(states.at(-1)).toMatchObject({ status: 'error', query: 'busy' });
  });

  it('a retry that succeeds delivers the answer', async () => {
    const { lane, calls, states } = harness();
    lane.input('again');
    await wait(40);
    calls[0]?.resolve({ kind: 'busy', retryAfterMs: 5 });
    await wait(40);
    calls[1]?.resolve({ kind: 'ok', body: 'hits' });
    await wait(5);
    expect(states.at(-1)).toEqual({ status: 'done', query: 'again', body: 'hits' });
  });
});
