// The MCP tools' session catalog is the scan's: its first scan of a fresh state root must already
// list the agents that keep logs inside projects (Aider), found in the projects other sessions ran in.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { aiderHomes, aiderReader } from '../agents/aider/reader.js';
import { banner, header, user as aiderUser } from '../agents/aider/test-support/history.js';
import { readers } from '../agents/all-readers.js';
import { assistant, jsonl, user, write } from '../agents/claude-code/test-support/fixtures.js';
import { agentHomes } from '../cli/context.js';
import { tempDir } from '../../test/support/temp.js';
import { ToolContext } from './context.js';

describe('the MCP session catalog', () => {
  it('lists an aider run on its first scan, from the project another session ran in', async () => {
    const root = await tempDir('agentlog-mcp-');
    const repo = join(root, 'code', 'app');
    const id = 'aaaaaaaa-0000-4000-8000-000000000001';
    await write(
      join(root, '.claude', 'projects', '-code-app', `${id}.jsonl`),
      jsonl([
        user('ask', 100, { sessionId: id, cwd: repo }),
        assistant('msg_1', [{ type: 'text', text: 'done' }], 101, { sessionId: id, cwd: repo }),
      ]),
    );
    await write(join(repo, '.aider.chat.history.md'), `${header('2026-10-05 10:00:00')}${banner('gpt-5')}${aiderUser('add a test')}`);
    const env: Record<string, string> = { HOME: root, CLAUDE_CONFIG_DIR: join(root, '.claude') };
    const lookup = { env: (name: string) => env[name], homedir: root };
    const ctx = new ToolContext({
      agents: agentHomes(lookup, readers),
      learnedHomes: async (projects) => [{ reader: aiderReader, homes: aiderHomes({ ...lookup, projects }) }],
      stateRoot: join(root, '.agentlog'),
      userHome: root,
      readerVersion: 'test',
      timeZone: 'UTC',
      now: Date.now,
    });
    const catalog = await ctx.catalog.get();
    expect(catalog.rows.map((r) => r.agent).sort()).toEqual(['aider', 'claude_code']);
  });
});
