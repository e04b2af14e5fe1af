// Qwen Code: chat recordings under `~/.qwen/projects/<sanitised cwd>/chats/<session id>.jsonl`.
//
// Format source: QwenLM/qwen-code (Apache-2.0), read at
// - packages/core/src/services/chatRecordingService.ts @ 015346f1d5d7312fddaf84a7ef1f83c7d217d389
//   (`ChatRecord`: uuid/parentUuid tree, `type` user | assistant | tool_result | system with `subtype`,
//   `message` as Gemini `Content`, `usageMetadata`, `model`, `toolCallResult`, `systemPayload`,
//   `isSidechain`/`agentId`; file `<projectDir>/chats/<sessionId>.jsonl`, append-only, resumed
//   sessions append to the same file; `/rewind` re-roots the chain, leaving a dead branch),
// - packages/core/src/config/storage.ts @ 013e660f5799186a369c737aea6b4bcb9ca0ef47 (`QWEN_RUNTIME_DIR`
//   else `~/.qwen`; project dir `projects/<sanitizeCwd(root)>`),
// - packages/core/src/utils/paths.ts @ 060227c9d5a2c765ffcf08ddefd8d9a4e3dd33f6 (`sanitizeCwd`: every
//   non-alphanumeric character becomes `-`),
// - packages/core/src/core/openaiContentGenerator/converter.ts @ 049f7fa0c857768536034bea2f57d9b3f869695c
//   (usage: `candidatesTokenCount` is the provider's completion count, reasoning included;
//   `thoughtsTokenCount` its reasoning part; `cachedContentTokenCount` part of `promptTokenCount`),
// - packages/core/src/tools/tools.ts (`AgentResultDisplay`, `type: 'task_execution'`: the subagent a
//   `task` call ran, recorded as the call's `resultDisplay`).
export { qwenReader } from './reader.js';
