import { describe, expect, it } from 'vitest';
import { UsageError } from './args.js';
import { parseAgentList, parseAgentName } from './agent-flag.js';

describe('--agent', () => {
  it('accepts ids and the spellings people type', async () => {
    expect(await parseAgentList(['claude_code,codex', 'kimi code', 'cc', 'gemini-cli', 'OpenCode'])).toEqual([
      'claude_code',
      'codex',
      'kimi',
      'gemini',
      'opencode',
    ]);
    expect(await parseAgentList([])).toBeUndefined();
  });

  it('rejects an unknown agent with the list of known ones', async () => {
    await expect(parseAgentName('windsurf')).rejects.toThrow(UsageError);
    await expect(parseAgentName('windsurf')).rejects.toThrow(/known agents: claude_code, codex/);
  });
});
