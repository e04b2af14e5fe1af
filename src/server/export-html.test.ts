import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exportHtml, scriptSafeJson } from './export-html.js';

describe('the HTML export', () => {
  it('writes JSON with no character that could end or open markup, and reads back the same value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const s = scriptSafeJson(v);
        expect(s).not.toMatch(/[<>&\u2028\u2029]/);
        expect(JSON.parse(s)).toEqual(JSON.parse(JSON.stringify(v)));
      }),
    );
    expect(scriptSafeJson('</script><script>alert(1)</script>')).toBe(
      '"\\u003c/script\\u003e\\u003cscript\\u003ealert(1)\\u003c/script\\u003e"',
    );
  });

  it('refuses a bundle that would close its own element', () => {
    const record = { session_id: 'x', turns: [] } as unknown as Parameters<typeof exportHtml>[0];
    expect(() => exportHtml(record, null, { script: 'a="</script>"', style: '' })).toThrow(/closing tag/);
    expect(exportHtml(record, null, { script: 'void 0', style: 'p{}' })).toContain("script-src 'sha256-");
  });
});
