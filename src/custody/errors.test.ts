import { describe, expect, it } from 'vitest';
import { CustodyError, custodyErrors, isCustodyError, isVanished, maxPageSize, printable } from './errors.js';
import { sessionId } from './session-id.js';

describe('custody errors', () => {
  it('name their ids and say what to do', () => {
    expect(custodyErrors.sessionNotFound('abc', '/h').message).toContain('"abc"');
    const sub = custodyErrors.subAgentNotFound('abc', 'toolu_1');
    expect(sub.message).toContain('abc');
    expect(sub.message).toContain('toolu_1');
    expect(custodyErrors.pageSourceMoved('abc', '/x').message).toMatch(/restart/);
    const size = custodyErrors.invalidPageSize(0);
    expect(size.message).toContain('0');
    expect(size.message).toContain(String(maxPageSize));
    const io = custodyErrors.io('/a/b', 'open', new Error('boom'));
    expect([io.code, io.path]).toEqual(['IOError', '/a/b']);
    expect(io.message).toContain('/a/b');
    expect(io).toBeInstanceOf(CustodyError);
    expect(isCustodyError(io, 'IOError')).toBe(true);
  });

  it('strip C0, DEL and C1 characters before cutting a hostile id to 40 characters', () => {
    expect(printable('a\u0000b\u001bc\u007fd\u0085e')).toBe('abcde');
    expect(printable(`\u0001${'x'.repeat(50)}`)).toBe(`${'x'.repeat(40)}…`);
    expect(custodyErrors.invalidSessionId('\u001b[31mred').message).not.toContain('\u001b');
  });

  it('see a vanished file through a cause chain, and nothing else', () => {
    const enoent = Object.assign(new Error('gone'), { code: 'ENOENT' });
    expect(isVanished(custodyErrors.io('/x', 'open', enoent))).toBe(true);
    expect(isVanished(new Error('outer', { cause: new Error('mid', { cause: enoent }) }))).toBe(true);
    expect(isVanished(Object.assign(new Error('no'), { code: 'EACCES' }))).toBe(false);
  });
});

describe('sessionId', () => {
  it('accepts the ids agents write', () => {
    for (const id of [
      '0a1b2c3d-4e5f-4061-8071-2a3b4c5d6e7f',
      'agent-a0ad4f44468bdf20d',
      'ses_abc',
      'rollout-2026-02-23T20-34-25-019c8bfe',
      'a.b',
    ])
      expect(sessionId(id)).toBe(id);
  });

  it('rejects anything a path could be steered with, before any path is built', () => {
    for (const id of ['', '..', '../x', 'a/b', '/etc/passwd', 'a\\b', 'a\u0000b', 'a\nb', '.hidden', 'a..b', 'x'.repeat(201), 'a b']) {
      expect(() => sessionId(id), id).toThrow(expect.objectContaining({ code: 'InvalidSessionId' }));
    }
  });
});
