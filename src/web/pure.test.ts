// The dashboard's pure parts: highlights from byte ranges, visible escapes, link filter, key map.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { highlightSegments } from './highlight-segments.js';
import { keyAction } from './keymap.js';
import { safeHref } from './safe-url.js';
import { rangePieces } from './deep-search.js';
import { dollars, hasCost, usageSeries } from './usage-series.js';
import { visibleText } from './visible-text.js';

const utf8 = (s: string): number => Buffer.byteLength(s, 'utf8');

describe('highlightSegments', () => {
  it('marks the byte ranges the server sent, offset by the snippet start', () => {
    // "café walrus": é is 2 bytes, so "walrus" starts at byte 6 of the snippet.
    const segs = highlightSegments('café walrus end', 100, [[106, 112]]);
    expect(segs).toEqual([
      { text: 'café ', mark: false },
      { text: 'walrus', mark: true },
      { text: ' end', mark: false },
    ]);
  });

  it('ignores ranges outside the snippet', () => {
    expect(
      highlightSegments('abc', 10, [
        [0, 5],
        [20, 30],
      ]),
    ).toEqual([{ text: 'abc', mark: false }]);
  });

  it('always joins back to the snippet, and marks exactly the covered code points', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 40 }),
        fc.nat(50),
        fc.array(fc.tuple(fc.nat(200), fc.nat(30))),
        (snippet, offset, raw) => {
          const ranges = raw.map(([s, l]): [number, number] => [s, s + l]);
          const segs = highlightSegments(snippet, offset, ranges);
          expect(segs.map((s) => s.text).join('')).toBe(snippet);
          let byte = offset;
          for (const seg of segs)
            for (const ch of seg.text) {
              const len = utf8(ch);
              expect(seg.mark).toBe(ranges.some(([s, e]) => byte < e && byte + len > s));
              byte += len;
            }
        },
      ),
    );
  });
});

describe('visibleText', () => {
  it('shows ANSI escapes and other controls as visible symbols, keeps newlines and tabs', () => {
    expect(visibleText('\u001b[31mred\u001b[0m\tok\n\u0007')).toBe('␛[31mred␛[0m\tok\n␇');
    expect(visibleText('del\u007f c1\u009b')).toBe('del\u2421 c1\\x9b');
  });
});

describe('safeHref', () => {
  it('keeps http(s) and mailto only', () => {
    expect(safeHref('https://example.com/a?b')).toBe('https://example.com/a?b');
    expect(safeHref('mailto:a@b.c')).toBe('mailto:a@b.c');
    for (const bad of [
      'javascript:alert(1)',
      ' JavaScript:alert(1)',
      'data:text/html,x',
      '/api/sessions',
      'vbscript:x',
      'file:///etc/passwd',
      '',
    ])
      expect(safeHref(bad)).toBeNull();
  });
});

describe('keyAction', () => {
  const press = (key: string, extra: Partial<{ ctrlKey: boolean; metaKey: boolean; altKey: boolean; inField: boolean }> = {}) =>
    keyAction({ key, ctrlKey: false, metaKey: false, altKey: false, inField: false, ...extra });
  it('maps the brief table', () => {
    expect(press('k', { ctrlKey: true })).toBe('palette');
    expect(press('K', { metaKey: true })).toBe('palette');
    expect(press('/')).toBe('focus-search');
    expect(press('j')).toBe('next-prompt');
    expect(press('k')).toBe('previous-prompt');
    expect(press('g')).toBe('top');
    expect(press('G')).toBe('latest');
    expect(press('s')).toBe('toggle-steps');
    expect(press('?')).toBe('help');
    expect(press('Escape')).toBe('escape');
  });
  it('leaves letters to text fields and to browser shortcuts', () => {
    expect(press('j', { inField: true })).toBeNull();
    expect(press('/', { inField: true })).toBeNull();
    expect(press('j', { ctrlKey: true })).toBeNull();
    expect(press('k', { ctrlKey: true, inField: true })).toBe('palette');
    expect(press('Escape', { inField: true })).toBe('escape');
  });
});

describe('usage chart series', () => {
  const row = (day: string, agent: 'claude_code' | 'codex', total: number, cost = 0) => ({
    day,
    agent,
    sessions: 1,
    input_tokens: total,
    output_tokens: 0,
    cache_read_tokens: 0,
    cache_creation_tokens: 0,
    reasoning_tokens: 0,
    total_tokens: total,
    cost_usd: cost,
    unpriced_models: cost === 0 ? ['a-model-without-a-price'] : [],
  });
  it('lays tokens or estimated cost per agent over every day of the range, zero where nothing ran', () => {
    const body = {
      ok: true as const,
      days: 3,
      time_zone: 'UTC',
      from: '2026-11-01',
      to: '2026-11-03',
      rows: [row('2026-11-01', 'codex', 10, 0.5), row('2026-11-03', 'claude_code', 30, 1.25), row('2026-11-03', 'codex', 5)],
    };
    expect(usageSeries(body)).toEqual({
      days: ['2026-11-01', '2026-11-02', '2026-11-03'],
      agents: ['claude_code', 'codex'],
      data: [
        [0, 0, 30],
        [10, 0, 5],
      ],
    });
    expect(usageSeries(body, 'cost').data).toEqual([
      [0, 0, 1.25],
      [0.5, 0, 0],
    ]);
    expect(hasCost(body)).toBe(true);
    expect(hasCost({ ...body, rows: [row('2026-11-01', 'codex', 1)] })).toBe(false);
    expect([dollars(0), dollars(0.0042), dollars(12.345), dollars(2500)]).toEqual(['$0.00', '$0.0042', '$12.35', '$2.5k']);
  });
});

describe('deep search snippets', () => {
  it('cuts the snippet at the UTF-16 ranges, in order, overlaps merged forward', () => {
    expect(
      rangePieces('a zeppelin and a hangar', [
        [17, 23],
        [2, 10],
      ]),
    ).toEqual([
      ['a ', false],
      ['zeppelin', true],
      [' and a ', false],
      ['hangar', true],
    ]);
    expect(
      rangePieces('abc', [
        [0, 2],
        [1, 3],
      ]),
    ).toEqual([
      ['ab', true],
      ['c', true],
    ]);
    expect(rangePieces('abc', [])).toEqual([['abc', false]]);
  });
});
