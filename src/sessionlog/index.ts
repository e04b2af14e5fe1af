// agentlog/sessionlog: write, resume, name and replay sessions in the Intendant session-log format
// (one self-contained folder per session; seed "Session Logging").
//
//   const log = await SessionLog.open({ stateRoot, projectRoot: process.cwd(), task });
//   log.userMessage({ provenance: 'task', text: task });
//   log.turnStart(1);
//   log.modelResponseWithMessage({ content: reply, tokens: { prompt, completion } });
//   log.writeSummary({ outcome: 'completed' });
//   await log.close();
//   const { events } = await replay(log.dir);   // replay_start, user_message, turn_start, …
export { SessionLog, type OpenOptions, type Worktree } from './session-log.js';
export type { Fallback } from './open-dir.js';
export { SessionLogError, sessionLogErrorCodes, type SessionLogErrorCode } from './errors.js';
export { systemClock, timeOfDay, localDateTime, type Clock } from './clock.js';
export { hash16 } from '../fs/hash.js';
export {
  Conversation,
  loadConversation,
  saveConversation,
  provenances,
  userProvenances,
  type Message,
  type Provenance,
  type UserProvenance,
  type ToolCallRef,
  type EpochRow,
  type LoadedConversation,
} from './conversation.js';
export type { Attachment, Tokens, UserMessageInput, ModelResponseInput, MirroredResponseInput, LaneResult } from './message-lane.js';
export type { ReasoningInput, AgentOutputInput } from './runtime-writers.js';
export type { ContextSnapshotInput } from './context-snapshot.js';
export type { SummaryInput } from './summary.js';
export { levels, preview, serialiseEvent, toLogEvent, type Level, type LogEvent } from './log-event.js';
export {
  readMeta,
  readMetaSync,
  updateMetaSync,
  parseMeta,
  sessionMetaSchema,
  sessionStatuses,
  subAgentRoles,
  type SessionMeta,
  type SessionStatus,
} from './meta.js';
export { files, logsRoot, turnFile } from './paths.js';
export { RuntimeLog, writeRuntimeLog, runtimeLogName, runtimeRandom, runtimeStreams, type RuntimeStream } from './runtime-log.js';
export { readSpan, isContainedPath, type Span, type SpanText } from './sidecar.js';
export { transcriptEntryFor, rebuildTranscript, type TranscriptEntry } from './transcript.js';
export {
  findSession,
  findLatestSession,
  listSessions,
  sessionTimeMs,
  type SessionEntry,
  type SessionList,
  type MetaProblem,
} from './find-session.js';
export { replay, replayRow, replayTextCap, type Replay } from './replay.js';
export type { ReplayEvent, ReplayKind, ReplayBase } from './replay-event.js';
export { recentEntries, type RecentEntries } from './recent-entries.js';
export { sessionGraph, type SessionGraph, type GraphNode, type GraphEdge, type BackendIdentity } from './session-graph.js';
export { normaliseName, normaliseNameOrNull, writeSessionName, maxNameChars } from './session-name.js';
export { withLock, withLockSync, pidAlive, type LockOptions } from '../fs/lock.js';
export { writeFileAtomicSync as writeFileAtomic } from '../fs/atomic-write.js';
export type { LineProblem } from './line-problem.js';
