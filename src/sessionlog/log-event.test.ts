import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { preview, serialiseEvent, toLogEvent } from './log-event.js';

describe('log events', () => {
  it('preview keeps at most 200 whole characters and is a prefix', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 400 }), fc.integer({ min: 0, max: 250 }), (text, max) => {
        const p = preview(text, max);
        expect(text.startsWith(p)).toBe(true);
        expect(Array.from(p).length).toBe(Math.min(max, Array.from(text).length));
        const last = p.charCodeAt(p.length - 1);
        expect(last >= 0xd800 && last <= 0xdbff).toBe(false);
      }),
    );
    expect(preview(`${'a'.repeat(199)}éé`)).toBe(`${'a'.repeat(199)}é`);
  });

  it('serialise in wire order, omit absent fields, and read back', () => {
    const line = serialiseEvent({
      file2: 'b',
      data: { x: 1 },
      event: 'agent_output',
      ts: '10:00:00.000',
      ts_ms: 5,
      turn: 2,
      level: 'warn',
      message: 'm',
      file: 'a',
    });
    expect(Object.keys(JSON.parse(line) as object)).toEqual(['ts', 'ts_ms', 'turn', 'event', 'level', 'message', 'data', 'file', 'file2']);
    expect(serialiseEvent({ ts: 't', event: 'e' })).toBe('{"ts":"t","event":"e"}');
    expect(toLogEvent(JSON.parse(line) as Record<string, unknown>)).toEqual({
      ts: '10:00:00.000',
      ts_ms: 5,
      turn: 2,
      event: 'agent_output',
      level: 'warn',
      message: 'm',
      data: { x: 1 },
      file: 'a',
      file2: 'b',
    });
    expect(toLogEvent({ ts: 't' })).toBeUndefined();
  });
});
