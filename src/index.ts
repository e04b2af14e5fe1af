// The package's main export (`import … from 'agentlog'`): the agent readers and their registry, the
// session record, and the scan, custody, search and error entry points the CLI is built from.

export { readerFor, readers } from './agents/all-readers.js';
export { loadReader, loadReaders } from './agents/registry.js';
export type {
  AgentHomes,
  AgentReader,
  DiscoveredSession,
  Discovery,
  FileProblem,
  HomeLookup,
  HomeVariable,
  MessageExtractor,
  OwnSessionNames,
  ParsedSession,
  ParseContext,
  SessionFile,
  TreeEntry,
} from './agents/types.js';
export { aiderReader } from './agents/aider/index.js';
export { claudeCodeReader } from './agents/claude-code/index.js';
export { codexReader } from './agents/codex/index.js';
export { clineReader, rooCodeReader } from './agents/cline/index.js';
export { copilotReader } from './agents/copilot/index.js';
export { crushReader } from './agents/crush/index.js';
export { cursorReader } from './agents/cursor/index.js';
export { droidReader } from './agents/droid/index.js';
export { geminiReader } from './agents/gemini/index.js';
export { gooseReader } from './agents/goose/index.js';
export { intendantReader } from './agents/intendant/index.js';
export { kimiReader } from './agents/kimi/index.js';
export { opencodeReader } from './agents/opencode/index.js';
export { piReader } from './agents/pi/index.js';
export { qwenReader } from './agents/qwen/index.js';

export * from './record/types.js';
export type { MessageExtract, MessageRecord, MessageResume } from './record/message-index.js';
export { finaliseRecord, type FinaliseOptions } from './record/finalise.js';
export { serialiseRecord, serialiseRecordPretty } from './record/serialise.js';

export { scan, type ScanOptions, type ScanReport } from './scan/scan.js';
export { resolveTarget, type Resolved } from './scan/resolve.js';

export * from './custody/index.js';

export { sweep, type SweepOptions, type SweepReport } from './search/sweep.js';
export { search, type SearchRequest } from './search/query.js';

export { AgentlogError, errorKinds, exitCodeOf, httpStatusOf, isAgentlogError, type ErrorKind } from './errors.js';
