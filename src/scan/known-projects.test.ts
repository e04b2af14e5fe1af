// The known-projects list: this scan's directories first, earlier ones after, bounded; a missing or
// corrupt list reads as empty.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp.js';
import { knownProjectsPath, maxKnownProjects, readKnownProjects, rememberProjects } from './known-projects.js';

describe('known projects', () => {
  it('puts the newest scan first, keeps earlier ones, drops relative paths and repeats, and stays bounded', async () => {
    const state = await tempDir();
    expect(readKnownProjects(state)).toEqual([]);
    expect(await rememberProjects(state, ['/a', '/b', 'relative', '/a'])).toBeNull();
    expect(await rememberProjects(state, ['/c', '/b'])).toBeNull();
    expect(readKnownProjects(state)).toEqual(['/c', '/b', '/a']);
    await rememberProjects(
      state,
      Array.from({ length: maxKnownProjects + 5 }, (_, i) => `/p${i}`),
    );
    const list = readKnownProjects(state);
    expect(list).toHaveLength(maxKnownProjects);
    expect(list[0]).toBe('/p0');
  });

  it('reads a corrupt list as empty and rewrites it', async () => {
    const state = await tempDir();
    await mkdir(dirname(knownProjectsPath(state)), { recursive: true });
    await writeFile(knownProjectsPath(state), '{"version":1,"projects":[');
    expect(readKnownProjects(state)).toEqual([]);
    await rememberProjects(state, ['/x']);
    expect(readKnownProjects(state)).toEqual(['/x']);
  });
});
