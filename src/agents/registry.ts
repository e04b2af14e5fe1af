// Every agent reader agentlog knows, in the order `claim` tries them. Adding an agent is one line.
import type { AgentId } from '../record/types.js';
import type { AgentReader } from './types.js';
import { claudeCodeReader } from './claude-code/index.js';
import { codexReader } from './codex/index.js';
import { kimiReader } from './kimi/index.js';
import { piReader } from './pi/index.js';
import { intendantReader } from './intendant/index.js';
import { geminiReader } from './gemini/index.js';
import { opencodeReader } from './opencode/index.js';
import { clineReader, rooCodeReader } from './cline/index.js';
import { qwenReader } from './qwen/index.js';
import { crushReader } from './crush/index.js';
import { copilotReader } from './copilot/index.js';
import { droidReader } from './droid/index.js';
import { gooseReader } from './goose/index.js';
import { aiderReader } from './aider/index.js';
import { cursorReader } from './cursor/index.js';

export const readers: readonly AgentReader[] = [
  claudeCodeReader,
  codexReader,
  kimiReader,
  piReader,
  intendantReader,
  geminiReader,
  opencodeReader,
  clineReader,
  rooCodeReader,
  qwenReader,
  crushReader,
  copilotReader,
  droidReader,
  gooseReader,
  aiderReader,
  cursorReader,
];

export function readerFor(id: AgentId): AgentReader | undefined {
  return readers.find((r) => r.id === id);
}
