// The telemetry skim reads a row from its bytes only where the parse would read the same row: it
// never takes a row the record is built from, nor a line that is not valid JSON.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/temp.js';
import { num, parseObjectLine, str } from '../../json/narrow.js';
import { serialiseEvent } from '../../sessionlog/log-event.js';
import { readLog } from './read-log.js';
import { TelemetrySkim } from './telemetry-skim.js';
import { isRecordRow, otherKnownRows, recordRows } from './vocabulary.js';

function accepts(line: string): { ok: boolean; tsMs: number | undefined } {
  const skim = new TelemetrySkim();
  const ok = skim.accepts(line);
  return { ok, tsMs: ok ? skim.tsMs : undefined };
}

const turnStart = serialiseEvent({
  ts: '16:20:08.360',
  ts_ms: 1796228408360,
  turn: 1,
  event: 'turn_start',
  level: 'info',
  data: { budget_pct: 1, remaining_tokens: 199900 },
});

describe('the telemetry skim', () => {
  it('reads the writer’s telemetry rows with their time', () => {
    expect(accepts(turnStart)).toEqual({ ok: true, tsMs: 1796228408360 });
    const started = serialiseEvent({
      ts: '16:20:08.140',
      ts_ms: 1,
      event: 'session_start',
      level: 'info',
      message: 'Session started at 2026-12-02',
    });
    expect(accepts(started)).toEqual({ ok: true, tsMs: 1 });
    // Rows from before `ts_ms` existed are rows with no time.
    expect(accepts(serialiseEvent({ ts: '10:00:00', event: 'round_complete', data: {} }))).toEqual({ ok: true, tsMs: undefined });
  });

  it('never takes a row the record is built from, however plain', () => {
    for (const event of recordRows) {
      const line = serialiseEvent({ ts: '10:00:00.000', ts_ms: 5, turn: 1, event, level: 'info', message: 'Model: m', data: { n: 1 } });
      expect(accepts(line).ok, event).toBe(false);
    }
    // Drift (an event outside the vocabulary) is parsed, so it is counted.
    expect(accepts(serialiseEvent({ ts: '10:00:00.000', event: 'made_up_row' })).ok).toBe(false);
  });

  it('leaves to the parse what it cannot prove plain: escapes, floats, nesting, torn and merged lines', () => {
    const plain = { ts: '10:00:00.000', ts_ms: 5, event: 'turn_start' };
    for (const line of [
      serialiseEvent({ ...plain, message: 'a "quoted" word' }),
      serialiseEvent({ ...plain, message: 'é' }),
      serialiseEvent({ ...plain, ts_ms: 5.5 }),
      serialiseEvent({ ...plain, data: { nested: { a: 1 } } }),
      serialiseEvent({ ...plain, data: { f: 0.5 } }),
      turnStart.slice(0, 60),
      `${turnStart.slice(0, 70)}${turnStart}`,
      `${turnStart}\n`,
      ` ${turnStart}`,
      turnStart.replace('"ts_ms":1796228408360', '"ts_ms":01796228408360'),
      turnStart.replace('"ts_ms":1796228408360', '"ts_ms":1796228408360000'),
      // A backslash before a closing quote escapes it: the string, and the line, would run on.
      turnStart.replace('"ts":"16:20:08.360"', '"ts":"16:20:08.360\\"'),
      turnStart.replace('"budget_pct"', '"budget_pct\\"'),
      serialiseEvent({ ...plain, message: 'ends in a backslash\\' }),
      // A key written twice reads as its last value in a parse: not the writer's shape.
      turnStart.replace('"ts_ms":1796228408360', '"ts_ms":1,"ts_ms":1796228408360'),
      // Whatever follows the row's closing brace is not one row.
      `${turnStart}x`,
      `${turnStart}${turnStart}`,
      turnStart.slice(0, -1),
    ]) {
      expect(accepts(line).ok, line).toBe(false);
    }
  });

  it('takes only lines that parse to the telemetry row and time it read', () => {
    const known = fc.constantFrom(...otherKnownRows, ...recordRows, 'made_up_row');
    const word = fc.string({ unit: fc.constantFrom('a', 'b', ' ', '"', '\\', 'é', '1', ':', '{', ','), maxLength: 8 });
    const row = fc.record({
      ts: word,
      ts_ms: fc.option(fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })), { nil: undefined }),
      turn: fc.option(fc.integer({ min: 0, max: 99 }), { nil: undefined }),
      event: known,
      level: fc.option(word, { nil: undefined }),
      message: fc.option(word, { nil: undefined }),
      data: fc.option(fc.dictionary(word, fc.oneof(fc.integer(), word, fc.boolean(), fc.constant(null))), { nil: undefined }),
    });
    // A line as written, then as a crash or an editor may leave it: cut short, spliced, or with a byte changed.
    const edited = fc
      .tuple(row, fc.nat(), fc.nat(), fc.constantFrom('', '}', '"', ',', '\\', '{"ts":"x",', '0', ' '))
      .map(([r, at, len, ins]) => {
        const line = serialiseEvent(r);
        const cut = at % (line.length + 1);
        return [line, line.slice(0, cut) + ins + line.slice(cut + (len % 3))];
      });
    fc.assert(
      fc.property(
        fc.oneof(
          row.map((r) => [serialiseEvent(r)]),
          edited,
        ),
        (lines) => {
          for (const line of lines) {
            const got = accepts(line);
            if (!got.ok) continue;
            const obj = parseObjectLine(line);
            expect(obj, line).toBeDefined();
            const event = str(obj, 'event') ?? '';
            expect(otherKnownRows as readonly string[], line).toContain(event);
            expect(isRecordRow(event), line).toBe(false);
            expect(got.tsMs, line).toBe(num(obj, 'ts_ms'));
          }
        },
      ),
      { numRuns: 3000 },
    );
  });
});

describe('a log read with the skim', () => {
  it('counts skimmed rows and their times, keeps every record row, and still counts a broken telemetry line bad', async () => {
    const path = join(await tempDir(), 'session.jsonl');
    const lines = [
      serialiseEvent({ ts: '10:00:00.000', ts_ms: 1_000, event: 'session_start', level: 'info', message: 'Session started' }),
      serialiseEvent({ ts: '10:00:01.000', ts_ms: 2_000, turn: 1, event: 'agent_input', level: 'info', message: 'x', data: { n: 1 } }),
      // A torn row with the next one appended after it: the parse refuses the line, so it is bad.
      `${turnStart.slice(0, 80)}${serialiseEvent({ ts: '10:00:02.000', ts_ms: 3_000, event: 'turn_start' })}`,
      serialiseEvent({ ts: '10:00:03.000', ts_ms: 9_000, turn: 1, event: 'round_complete', level: 'info', data: { round: 1 } }),
      serialiseEvent({ ts: '10:00:04.000', ts_ms: 4_000, event: 'debug', level: 'debug', message: 'Model: m' }),
    ];
    await writeFile(path, `${lines.join('\n')}\n`);
    const log = await readLog(path);
    expect(log.events).toBe(4);
    expect(log.badLines).toBe(1);
    expect(log.rows.map((r) => [r.event, r.line])).toEqual([
      ['agent_input', 2],
      ['debug', 5],
    ]);
    // The span reaches the skimmed rows' times, first and last.
    expect([log.facts.minMs, log.facts.maxMs]).toEqual([1_000, 9_000]);
    expect(log.unknownEvents.size).toBe(0);
  });
});
