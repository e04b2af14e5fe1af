import { mkdir, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyCorpus, hasCorpus, tempDir } from '../../../test/support/temp.js';
import { claudeCodeReader } from './reader.js';

describe.skipIf(!hasCorpus)('claudeCodeReader.tree', () => {
  it('keeps the whole session folder: subagents and tool results', async () => {
    const home = join(await tempDir(), '.claude');
    const project = join(home, 'projects', '-subagent-demo');
    await copyCorpus('claude/projects/-subagent-demo', project);
    const id = '0a1b2c3d-4e5f-4061-8071-2a3b4c5d6e7f';
    await mkdir(join(project, id, 'tool-results'), { recursive: true });
    await writeFile(join(project, id, 'tool-results', 'toolu_1.txt'), 'big output');
    const { sessions } = await claudeCodeReader.discover(home);
    const session = sessions.find((s) => s.sessionId === id);
    expect(session).toBeDefined();
    const tree = await claudeCodeReader.tree(session!);
    const rel = tree.map((t) => t.relPath).sort();
    expect(rel).toEqual(
      [
        `projects/-subagent-demo/${id}.jsonl`,
        `projects/-subagent-demo/${id}/subagents/agent-a0ad4f44468bdf20d.jsonl`,
        `projects/-subagent-demo/${id}/subagents/agent-a0ad4f44468bdf20d.meta.json`,
        `projects/-subagent-demo/${id}/tool-results/toolu_1.txt`,
      ].sort(),
    );
    expect(tree.every((t) => t.kind === 'file' && relative(home, t.path) === t.relPath)).toBe(true);
  });
});
