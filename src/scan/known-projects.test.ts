// The known-projects list: this scan's directories first, earlier ones after, bounded; a missing or
// corrupt list reads as empty.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp.js';
import { aiderHomes, aiderReader } from '../agents/aider/reader.js';
import { ai, banner, header, user } from '../agents/aider/test-support/history.js';
import { codexReader } from '../agents/codex/reader.js';
import { Rollout, writeRollout } from '../agents/codex/test-support/rollout-fixture.js';
import { knownProjectsPath, maxKnownProjects, readKnownProjects, rememberProjects } from './known-projects.js';
import { scan } from './scan.js';

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

  it("learns a scan's directories newest session first, whichever session was read first", async () => {
    const root = await tempDir();
    const codex = join(root, '.codex');
    const state = join(root, 'state');
    const older = '019a0000-0000-7000-8000-000000000001';
    const newer = '019a0000-0000-7000-8000-000000000002';
    // The older session is the larger, so a cold scan reads it first.
    const chatter = Array.from({ length: 40 }, (_, i) => `question ${i}`);
    const long = new Rollout(older, '2026-09-01T09:00:00.000Z').meta({ cwd: '/work/old' });
    for (const q of chatter) long.line('event_msg', { type: 'user_message', message: q });
    await writeRollout(codex, older, long.text());
    await writeRollout(
      codex,
      newer,
      new Rollout(newer, '2026-10-01T09:00:00.000Z')
        .meta({ cwd: '/work/new' })
        .line('event_msg', { type: 'user_message', message: 'hi' })
        .text(),
    );
    const run = () =>
      scan({ agents: [{ reader: codexReader, homes: [codex] }], stateRoot: state, userHome: null, readerVersion: 't', concurrency: 1 });
    await run();
    expect(readKnownProjects(state)).toEqual(['/work/new', '/work/old']);
    await run();
    expect(readKnownProjects(state)).toEqual(['/work/new', '/work/old']);
  });

  it('looks in the projects a cold scan learns at once, so it lists what the next scan lists', async () => {
    const root = await tempDir();
    const codex = join(root, '.codex');
    const project = join(root, 'project');
    const state = join(root, 'state');
    const id = '019a0000-0000-7000-8000-000000000003';
    await writeRollout(codex, id, new Rollout(id).meta({ cwd: project }).line('event_msg', { type: 'user_message', message: 'hi' }).text());
    await mkdir(project, { recursive: true });
    await writeFile(
      join(project, '.aider.chat.history.md'),
      `${header('2026-10-01 09:00:00')}${banner('gpt-4o')}${user('fix it')}${ai('Fixed.')}`,
    );
    const homeOf = (projects: readonly string[]) =>
      aiderHomes({ env: () => undefined, homedir: join(root, 'home'), projects }).filter((h) => h.startsWith(root));
    const run = async () => {
      const agents = [
        { reader: codexReader, homes: [codex] },
        { reader: aiderReader, homes: homeOf(readKnownProjects(state)) },
      ];
      const r = await scan({
        agents,
        stateRoot: state,
        userHome: null,
        readerVersion: 't',
        learnedHomes: async (projects) => [{ reader: aiderReader, homes: homeOf(projects) }],
      });
      return { roots: r.roots, sessions: r.sessions.map((s) => `${s.agent}:${s.repo}`).sort() };
    };
    const cold = await run();
    expect(cold.sessions).toEqual([`aider:${project}`, `codex:${project}`]);
    expect(cold.roots.filter((r) => r.agent === 'aider')).toEqual(
      homeOf([project]).map((path) => ({ agent: 'aider', path, sessions: path === project ? 1 : 0 })),
    );
    expect(await run()).toEqual(cold);
  });
});
