import { mkdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/temp.js';
import type { Detail } from '../../record/types.js';
import { allowFilePath, configDir, readAllowlist, writeAllowlist } from './allow-file.js';
import { decideOptIn, type RealPath } from './opt-in.js';

const real: RealPath = (p) => {
  try {
    return realpathSync(p);
  } catch {
    return null;
  }
};
const list = (entries: Record<string, Detail>) => new Map(Object.entries(entries));

describe('decideOptIn', () => {
  it('needs every directory inside an allowed path, component-wise', () => {
    const allow = list({ '/w/demo': 'full' });
    expect(decideOptIn(['/w/demo'], allow, real)).toEqual({ allowed: true, detail: 'full' });
    expect(decideOptIn(['/w/demo/sub/dir', '/w/demo/'], allow, real)).toEqual({ allowed: true, detail: 'full' });
    expect(decideOptIn(['/w/demo-other'], allow, real)).toEqual({ allowed: false, reason: 'repo not opted in' });
    // One directory outside (a subagent's, say) is enough to leave the whole session out.
    expect(decideOptIn(['/w/demo', '/w/secret'], allow, real)).toEqual({ allowed: false, reason: 'repo not opted in' });
    expect(decideOptIn([], allow, real).allowed).toBe(false);
    expect(decideOptIn(['relative/dir'], allow, real).allowed).toBe(false);
    expect(decideOptIn(['/w/demo/../secret'], allow, real).allowed).toBe(false);
    expect(decideOptIn(['/anything'], list({ '/': 'messages' }), real)).toEqual({ allowed: true, detail: 'messages' });
  });

  it('takes the most specific path per directory and the most restrictive over directories', () => {
    const allow = list({ '/w': 'full', '/w/mono': 'messages', '/w/mono/vendor': 'summary' });
    expect(decideOptIn(['/w/mono/app'], allow, real)).toEqual({ allowed: true, detail: 'messages' });
    expect(decideOptIn(['/w/other'], allow, real)).toEqual({ allowed: true, detail: 'full' });
    expect(decideOptIn(['/w/other', '/w/mono/app'], allow, real)).toEqual({ allowed: true, detail: 'messages' });
    expect(decideOptIn(['/w/mono/vendor/x', '/w/other'], allow, real)).toEqual({ allowed: true, detail: 'summary' });
  });

  it('matches a symlinked checkout by the path it really is, and allows paths that do not exist here', async () => {
    const dir = await tempDir();
    const realRepo = join(dir, 'real-repo');
    await mkdir(realRepo);
    await symlink(realRepo, join(dir, 'link'));
    const allowReal = list({ [realpathSync(realRepo)]: 'full' });
    expect(decideOptIn([join(dir, 'link', 'src')], allowReal, real)).toEqual({ allowed: false, reason: 'repo not opted in' });
    await mkdir(join(realRepo, 'src'));
    expect(decideOptIn([join(dir, 'link', 'src')], allowReal, real)).toEqual({ allowed: true, detail: 'full' });
    // Allowed by its recorded (symlink) form too.
    expect(decideOptIn([join(dir, 'link')], list({ [join(dir, 'link')]: 'summary' }), real)).toEqual({ allowed: true, detail: 'summary' });
    expect(decideOptIn(['/not/mounted/here/x'], list({ '/not/mounted/here': 'messages' }), real)).toEqual({
      allowed: true,
      detail: 'messages',
    });
  });
});

describe('the opt-in file', () => {
  it('lives under XDG_CONFIG_HOME when absolute, else ~/.config', () => {
    const env = (v: Record<string, string>) => (n: string) => v[n];
    expect(configDir(env({ XDG_CONFIG_HOME: '/x/cfg' }), '/home/a')).toBe('/x/cfg/agentlog');
    expect(configDir(env({ XDG_CONFIG_HOME: 'rel' }), '/home/a')).toBe('/home/a/.config/agentlog');
    expect(configDir(env({}), '/home/a')).toBe('/home/a/.config/agentlog');
    expect(() => configDir(env({}), '')).toThrow(/no config folder/);
  });

  it('round-trips, sorted, written 0600; a missing file allows nothing', async () => {
    const dir = await tempDir();
    const path = allowFilePath(join(dir, 'agentlog'));
    expect((await readAllowlist(path)).size).toBe(0);
    writeAllowlist(path, list({ '/w/b': 'summary', '/w/a': 'full' }));
    expect([...(await readAllowlist(path))]).toEqual([
      ['/w/a', 'full'],
      ['/w/b', 'summary'],
    ]);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual({ version: 1, allowed: { '/w/a': 'full', '/w/b': 'summary' } });
  });

  it('refuses a corrupt file and a newer version rather than reading them as empty', async () => {
    const dir = await tempDir();
    const path = join(dir, 'allow.json');
    const cases: [string, RegExp][] = [
      ['{not json', /not a valid opt-in file \(not JSON\)/],
      ['[]', /not a valid opt-in file/],
      ['{"version":1,"allowed":{"relative":"full"}}', /not a valid opt-in file/],
      ['{"version":1,"allowed":{"/w":"everything"}}', /not a valid opt-in file/],
      ['{"version":1,"allowed":{},"extra":1}', /not a valid opt-in file/],
      ['{"version":0,"allowed":{}}', /not a valid opt-in file/],
      ['{"version":2,"allowed":{}}', /written by a newer agentlog \(version 2/],
    ];
    for (const [text, message] of cases) {
      await writeFile(path, text);
      await expect(readAllowlist(path)).rejects.toThrow(message);
    }
  });
});
