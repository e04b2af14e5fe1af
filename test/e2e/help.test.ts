// Help text derived from the registry: every agent's home variables and ids, none typed by hand.
import { describe, expect, it } from 'vitest';
import { readers } from '../../src/agents/all-readers.js';
import { runCli } from '../support/cli.js';
import { tempDir } from '../support/temp.js';

describe('help', () => {
  it('names every home variable of every reader, with its default', async () => {
    const r = await runCli(['--help'], await tempDir());
    expect(r.code, r.stderr).toBe(0);
    for (const reader of readers)
      for (const v of reader.homeVariables)
        expect(r.stdout).toMatch(new RegExp(`\\b${v.name}\\s+${reader.displayName}(, in its ${v.folder})? \\(default ${v.default}\\)`));
    expect(r.stdout).toContain('GEMINI_CLI_HOME');
  });

  it('lists every registered agent under --agent', async () => {
    for (const command of ['scan', 'keep', 'search']) {
      const r = await runCli([command, '--help'], await tempDir());
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain(`only these agents (${readers.map((x) => x.id).join(', ')})`);
    }
  });
});
