import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cutLine } from './summary-line.js';

function lineOf(body: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    type: 'user',
    message: {
      role: 'user',
      content: [
        { tool_use_id: 't1', type: 'tool_result', content: body, is_error: false },
        { type: 'text', text: body },
      ],
    },
    toolUseResult: { stdout: body, file: { content: body }, agentId: body, status: 'completed' },
    ...extra,
  };
}

/** The shape `lineOf` writes, for reading the cut copy back. */
interface Line {
  type: string;
  message: { content: { content?: string; text?: string }[] };
  toolUseResult: { stdout: string; agentId: string; status: string };
}

function cut(value: unknown): Line | undefined {
  const b = Buffer.from(JSON.stringify(value));
  const s = cutLine(b, 0, b.length);
  return s === undefined ? undefined : (JSON.parse(s) as Line);
}

describe('cutLine', () => {
  it('cuts result bodies and structured results, keeping what summary reads', () => {
    const body = `[Request interrupted by user] ${'x'.repeat(5000)}`;
    const got = cut(lineOf(body, { toolUseResult: { stdout: body, agentId: body, status: 'completed' } }))!;
    expect(got.message.content[0]?.content?.length).toBeLessThan(300);
    expect(got.message.content[0]?.content?.startsWith('[Request interrupted by user] xxx')).toBe(true);
    expect(got.message.content[1]?.text).toBe(body);
    expect(got.toolUseResult.stdout.length).toBeLessThan(300);
    expect(got.toolUseResult.agentId).toBe(body);
    expect(got.toolUseResult.status).toBe('completed');
  });

  it('leaves a string toolUseResult, user prose and short lines alone', () => {
    const body = 'y'.repeat(5000);
    expect(cut({ type: 'user', message: { content: body }, toolUseResult: body })).toBeUndefined();
    expect(cut(lineOf('short'))).toBeUndefined();
  });

  it('falls back on keys spelled with escapes and on torn lines', () => {
    const result = `"message":{"content":[{"type":"tool_result","content":"short"}]}`;
    const b = Buffer.from(`{"type":"user",${result},"toolUse\\u0052esult":{"stdout":"${'z'.repeat(2000)}"}}`);
    expect(cutLine(b, 0, b.length)).toBeUndefined();
    const torn = Buffer.from(JSON.stringify(lineOf('q'.repeat(3000))).slice(0, 1500));
    expect(cutLine(torn, 0, torn.length)).toBeUndefined();
  });

  it("finds a string's end past the bytes scanned in a plain loop, escapes straddling that bound included", () => {
    for (let pad = 55; pad < 70; pad++) {
      const body = `${'b'.repeat(pad)}\\"q\\\\${'w'.repeat(700)}"tail`;
      const got = cut(lineOf(body))!;
      expect(body.startsWith(got.message.content[0]?.content ?? 'no')).toBe(true);
      expect(got.message.content[1]?.text).toBe(body);
    }
  });

  it('falls back on a long key spelled with an escape and on lines nested past its stack', () => {
    const longKey = `${'k'.repeat(80)}\\u0041`;
    const b = Buffer.from(`{"${longKey}":1,"toolUseResult":{"stdout":"${'z'.repeat(2000)}"}}`);
    expect(cutLine(b, 0, b.length)).toBeUndefined();
    const deep = `${'['.repeat(70)}${']'.repeat(70)}`;
    const d = Buffer.from(`{"x":${deep},"toolUseResult":{"stdout":"${'z'.repeat(2000)}"}}`);
    expect(cutLine(d, 0, d.length)).toBeUndefined();
    const shallow = Buffer.from(`{"x":[[]],"toolUseResult":{"stdout":"${'z'.repeat(2000)}"}}`);
    expect(cutLine(shallow, 0, shallow.length)?.length).toBeLessThan(400);
  });

  it('leaves a line that names no tool result alone, whatever its long strings', () => {
    const long = 'v'.repeat(3000);
    expect(cut({ type: 'assistant', message: { content: [{ type: 'text', text: long }] } })).toBeUndefined();
    expect(cut({ type: 'user', message: { content: [{ type: 'other', content: long }] } })).toBeUndefined();
    expect(cut({ type: 'user', message: { content: [{ type: 'tool_result', content: long }] } })).toBeDefined();
    expect(cut({ type: 'user', toolUseResult: { stdout: long } })).toBeDefined();
  });

  it('never splits an escape or a character: the cut copy parses and keeps a prefix', () => {
    const piece = fc.constantFrom('a', ' ', '\n', '\\', '"', '\t', '\u0001', 'é', '€', '😀', '\ud800', 'Exit code 1');
    fc.assert(
      fc.property(fc.array(piece, { minLength: 0, maxLength: 900 }), fc.nat(40), (parts, pad) => {
        const body = 'p'.repeat(pad) + parts.join('');
        const original = lineOf(body);
        const got = cut(original);
        if (got === undefined) return;
        const kept = got.message.content[0]?.content ?? '';
        expect(body.startsWith(kept)).toBe(true);
        expect(kept.length).toBeGreaterThanOrEqual(Math.min(body.length, 40));
        expect(got.message.content[1]?.text).toBe(body);
        expect(got.toolUseResult.agentId).toBe(body);
        expect(got.type).toBe('user');
      }),
      { numRuns: 300 },
    );
  });
});
