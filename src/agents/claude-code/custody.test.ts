import { mkdir, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/temp.js';
import { claudeTree } from './custody.js';
import { discoverClaude } from './discover.js';

describe('claudeTree', () => {
  it('names every file as `relative` would, however the home is spelled and the files are named', async () => {
    const root = await tempDir();
    const home = join(root, '.claude');
    const id = '0a1b2c3d-4e5f-4061-8071-2a3b4c5d6e7f';
    const project = join(home, 'projects', '-p');
    await mkdir(join(project, id, 'subagents'), { recursive: true });
    await mkdir(join(project, id, 'tool-results', '.hidden'), { recursive: true });
    await writeFile(join(project, `${id}.jsonl`), '{"sessionId":"x"}\n');
    await writeFile(join(project, id, 'subagents', 'agent-a1.jsonl'), '{}\n');
    for (const name of ['..dots', '.hidden/x', 'line\nbreak', 'a b']) await writeFile(join(project, id, 'tool-results', name), 'out');
    for (const spelled of [home, `${home}/`, join(home, '..', '.claude'), relative(process.cwd(), home)]) {
      const { sessions } = await discoverClaude(spelled);
      const session = sessions.find((s) => s.sessionId === id);
      expect(session, spelled).toBeDefined();
      const tree = await claudeTree(session!);
      expect(tree).toHaveLength(6);
      for (const t of tree) expect(t.relPath, spelled).toBe(t.kind === 'file' ? relative(session!.home, t.path) : '');
    }
  });
});
