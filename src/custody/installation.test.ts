import { mkdir, readFile, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp.js';
import {
  derivedKey,
  installationName,
  installationsOf,
  listInstallations,
  listInstallationsSync,
  openInstallation,
} from './installation.js';

const now = (): number => Date.parse('2026-01-01T00:00:00Z');

describe('installations', () => {
  it('derive a stable key from the canonical home, recorded once', async () => {
    const dir = await tempDir();
    const home = join(dir, 'claude');
    await mkdir(home);
    const state = join(dir, 'state');
    await mkdir(state);
    const a = await openInstallation({ stateRoot: state, agent: 'claude_code', home, version: '1', now });
    expect(a.key).toBe(derivedKey('claude_code', home));
    expect(a.key).toMatch(/^claude_code-[0-9a-f]{12}$/);
    const recorded = JSON.parse(await readFile(join(a.root, 'installation.json'), 'utf8')) as Record<string, unknown>;
    expect(recorded).toMatchObject({ version: 1, key: a.key, agent: 'claude_code', home, canonical_home: home });
    // A symlink to the same home is the same installation.
    const link = join(dir, 'link');
    await symlink(home, link);
    const b = await openInstallation({ stateRoot: state, agent: 'claude_code', home: link, version: '2', now: () => 0 });
    expect(b.key).toBe(a.key);
    expect(b.record.created_at).toBe(a.record.created_at);
    expect((await listInstallations(state)).map((i) => i.key)).toEqual([a.key]);
    expect(listInstallationsSync(state).map((i) => i.key)).toEqual([a.key]);
    expect(installationsOf(listInstallationsSync(state), 'claude_code', home)).toHaveLength(1);
    expect(installationsOf(listInstallationsSync(state), 'codex', home)).toHaveLength(0);
  });

  it('keep a named installation for its home and refuse the name for another home (InstallationKeyTaken)', async () => {
    const dir = await tempDir();
    const state = join(dir, 'state');
    await mkdir(state);
    const one = await openInstallation({ stateRoot: state, agent: 'claude_code', home: join(dir, 'one'), name: 'work', version: '1', now });
    expect(one.key).toBe('work');
    // Without a name the home's existing installation is reused.
    expect((await openInstallation({ stateRoot: state, agent: 'claude_code', home: join(dir, 'one'), version: '1', now })).key).toBe(
      'work',
    );
    await expect(
      openInstallation({ stateRoot: state, agent: 'claude_code', home: join(dir, 'two'), name: 'work', version: '1', now }),
    ).rejects.toMatchObject({ code: 'InstallationKeyTaken' });
    await expect(
      openInstallation({ stateRoot: state, agent: 'codex', home: join(dir, 'one'), name: 'work', version: '1', now }),
    ).rejects.toMatchObject({ code: 'InstallationKeyTaken' });
  });

  it('accept only plain names', () => {
    expect(installationName('laptop-2')).toBe('laptop-2');
    for (const bad of ['', '..', 'a/b', '.x', 'a b', 'x'.repeat(65), 'a..b'])
      expect(() => installationName(bad), bad).toThrow(expect.objectContaining({ code: 'InvalidInstallationName' }));
  });

  it('refuse a kept folder that is a symbolic link', async () => {
    const dir = await tempDir();
    const state = join(dir, 'state');
    await mkdir(join(state, 'kept'), { recursive: true });
    await mkdir(join(dir, 'elsewhere'));
    await symlink(join(dir, 'elsewhere'), join(state, 'kept', 'evil'));
    await expect(
      openInstallation({ stateRoot: state, agent: 'claude_code', home: join(dir, 'h'), name: 'evil', version: '1', now }),
    ).rejects.toMatchObject({ code: 'UnsafePath' });
  });
});
