// GitHub Copilot CLI: session event logs under `~/.copilot/session-state/<session id>/events.jsonl`.
//
// Format source: the Copilot CLI runtime's event schema as published in github/copilot-sdk
// (MIT) @ cc0438d66e3e68c333537cb935d9425d4e4ed8d5: nodejs/src/generated/session-events.ts
// ("Generated from: session-events.schema.json"; every event `{type, id, parentId, timestamp, data,
// agentId?, ephemeral?}`, ephemeral events never written to disk; `session.start`/`session.resume`
// with `context.cwd`/`branch`; `user.message` `content` as displayed vs `transformedContent` sent;
// `assistant.message` with `toolRequests`; `tool.execution_complete` with `success`, `result`,
// `error`; `subagent.started|completed|failed` keyed by the launching `toolCallId`, sub-agent events
// tagged `agentId` (and the deprecated `parentToolCallId`); `session.compaction_complete`;
// `session.shutdown` with per-model `modelMetrics` usage; `assistant.usage` is ephemeral), and
// docs/setup/multi-tenancy.md (`COPILOT_HOME/session-state/{sessionId}`, default `~/.copilot`).
// Real-file layout (a folder with `events.jsonl` and `workspace.yaml`, and the older loose
// `<session id>.jsonl`) as public readers of real sessions describe it: qiaolei81/copilot-session-viewer
// README.md, and a tokentop plugin's types ("every line in events.jsonl has this shape").
export { copilotReader } from './reader.js';
