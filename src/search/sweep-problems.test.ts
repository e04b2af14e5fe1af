import { rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp.js';
import { sweep } from './sweep.js';
import { claudeAgents, claudeHome, clock, minutes, testStore, writeSession } from './test-support/claude-home.js';

const sid = '00000001-2222-4333-8444-555555555555';

describe('sweep over an unreadable agent home', () => {
  it('reports a home that cannot be resolved, and flags none of its sessions gone', async () => {
    const home = await tempDir();
    await writeSession(home, sid, [{ role: 'user', text: 'still here', ago: minutes(5) }]);
    const root = testStore(home);
    await sweep({ root, agents: claudeAgents(home), now: clock });
    // The home becomes a link to itself (ELOOP): not "no agent installed".
    await rm(claudeHome(home), { recursive: true });
    await symlink(claudeHome(home), claudeHome(home));
    const r = await sweep({ root, agents: claudeAgents(home), now: clock });
    expect(r.problems).toEqual([{ path: claudeHome(home), reason: expect.stringMatching(/^claude_code home unreadable: .*ELOOP/) }]);
    expect(r.gone).toBe(0);
  });

  it("reports what the reader could not list, and flags none of that agent's sessions gone", async () => {
    const home = await tempDir();
    await writeSession(home, sid, [{ role: 'user', text: 'still here', ago: minutes(5) }]);
    const root = testStore(home);
    await sweep({ root, agents: claudeAgents(home), now: clock });
    // Its project folder becomes a link to itself: the session is not listed, and not known gone.
    const project = join(claudeHome(home), 'projects', '-work-demo');
    await rm(project, { recursive: true });
    await symlink(project, project);
    const r = await sweep({ root, agents: claudeAgents(home), now: clock });
    expect(r.problems).toEqual([{ path: project, reason: expect.stringMatching(/^claude_code unreadable: .*ELOOP/) }]);
    expect(r.gone).toBe(0);
  });

  it('flags a session gone when a folder on its path was replaced by a file', async () => {
    const home = await tempDir();
    await writeSession(home, sid, [{ role: 'user', text: 'gone soon', ago: minutes(5) }]);
    const root = testStore(home);
    await sweep({ root, agents: claudeAgents(home), now: clock });
    const projects = join(claudeHome(home), 'projects');
    await rm(projects, { recursive: true });
    await writeFile(projects, 'not a folder');
    const r = await sweep({ root, agents: claudeAgents(home), now: clock });
    expect(r.gone).toBe(1);
  });

  it('says nothing about an agent that is not installed', async () => {
    const home = await tempDir();
    const r = await sweep({ root: testStore(home), agents: claudeAgents(home), now: clock });
    expect(r.problems).toEqual([]);
  });
});
