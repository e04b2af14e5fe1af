import { describe, expect, it } from 'vitest';
import { backupNumber, backupPath, factsRel, keptRoot, relDir, safeRelPath, tempPath } from './paths.js';

describe('custody paths', () => {
  it('keep an installation under kept/<key>, mirroring the home by relPath', () => {
    expect(keptRoot('/s', 'claude_code-abc')).toBe('/s/kept/claude_code-abc');
    expect(factsRel('projects/-x/s.jsonl')).toBe('projects/-x/s.jsonl.custody');
    expect(tempPath('/k/projects/-x/s.jsonl')).toBe('/k/projects/-x/.s.jsonl.keep-tmp');
    expect(backupPath('/k/a.jsonl', 3)).toBe('/k/a.jsonl.3.bak');
    expect(relDir('a.jsonl')).toBe('');
    expect(relDir('projects/-x/a.jsonl')).toBe('projects/-x');
  });

  it('number backups only of the file they belong to', () => {
    expect(backupNumber('a.jsonl', 'a.jsonl.12.bak')).toBe(12);
    expect(backupNumber('a.jsonl', 'a.jsonl.x.bak')).toBeNull();
    expect(backupNumber('a.jsonl', 'b.jsonl.1.bak')).toBeNull();
  });

  it("accept plain relPaths and refuse escapes and custody's own names", () => {
    expect(safeRelPath('projects/-x/s/subagents/agent-1.meta.json')).toBe('projects/-x/s/subagents/agent-1.meta.json');
    for (const bad of [
      '',
      '/abs',
      '../up',
      'a/../b',
      'a//b',
      './a',
      'a/.',
      'a\\b',
      'a\u0000',
      'installation.json',
      '.lock',
      'x.custody',
      'a/x.jsonl.2.bak',
      'a/.x.keep-tmp',
    ]) {
      expect(() => safeRelPath(bad), bad).toThrow(expect.objectContaining({ code: 'UnsafePath' }));
    }
  });
});
