// Claude Code: `~/.claude/projects/<dir>/<session>.jsonl` with its subagents.
export { claudeCodeReader } from './reader.js';
