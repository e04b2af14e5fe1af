import { describe, expect, it } from 'vitest';
import { projectName } from './project.js';

describe('projectName', () => {
  it("cuts the repository's basename to the hub's rule", () => {
    expect(projectName('~/code/demo')).toBe('demo');
    expect(projectName('~/code/EarthOS.world/')).toBe('EarthOS.world');
    expect(projectName('/srv/my repo (v2)')).toBe('my-repo--v2-');
    expect(projectName('~/.dotfiles')).toBe('dotfiles');
    expect(projectName('~/code/café')).toBe('caf-');
    expect(projectName(`~/${'x'.repeat(80)}`)).toBe('x'.repeat(64));
    expect(projectName('C:\\Users\\x\\proj')).toBe('proj');
  });

  it('names none without a repository or a usable name', () => {
    for (const repo of ['', '~', '/', '~/---', '~/[REDACTED:email]']) expect(projectName(repo)).toBeNull();
  });
});
