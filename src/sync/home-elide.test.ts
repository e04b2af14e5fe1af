import { describe, expect, it } from 'vitest';
import { makeSyncElider } from './home-elide.js';

describe('makeSyncElider', () => {
  const elide = makeSyncElider(['/home/alice', '/data/users/alice/']);

  it('elides the home and its real path at path boundaries only', () => {
    expect(elide('cd /home/alice/code && ls /home/alice')).toBe('cd ~/code && ls ~');
    expect(elide('"/home/alice"')).toBe('"~"');
    expect(elide('file:///home/alice/x')).toBe('file://~/x');
    expect(elide('/data/users/alice/src')).toBe('~/src');
    expect(elide('/home/alicex/code /home/alice.bak /mnt/home/alice/x /home/alice-old')).toBe(
      '/home/alicex/code /home/alice.bak /mnt/home/alice/x /home/alice-old',
    );
  });

  it("elides Claude Code's dash-encoded form of the home", () => {
    expect(elide('~/.claude/projects/-home-alice-code-demo/x.jsonl')).toBe('~/.claude/projects/~-code-demo/x.jsonl');
    expect(elide('-home-alice')).toBe('~');
    expect(elide('-home-alicex-code x-home-alice')).toBe('-home-alicex-code x-home-alice');
  });

  it('elides nothing for a root, relative or empty home', () => {
    for (const home of ['/', '', 'home/alice']) expect(makeSyncElider([home])('/home/alice/x')).toBe('/home/alice/x');
  });
});
