// Factory Droid: sessions under `~/.factory/sessions/<-sanitised-cwd>/<id>.jsonl` + `<id>.settings.json`.
//
// Format sources (the droid CLI itself is not open source):
// - Factory-AI/droid-sdk-typescript (Factory's own SDK, "mirroring the logic used by the droid CLI's
//   SessionService"): src/session-discovery.ts and src/schemas/session-metadata.ts
//   @ 41210e3dfa9c72143c537af78cdf41e6011e29d6 (`~/.factory/sessions/`, project folders named `-` +
//   the cwd with `/` as `-`, legacy sessions directly under the root, the first line a
//   `session_start` event with `title`, `owner`, `cwd`, a sibling `<id>.settings.json`),
//   src/protocol/session.ts @ 60621c2b5e189c2ffa350ac5eda33f1bc3ef129d (the settings file's
//   `tokenUsage`: inputTokens, outputTokens, cacheCreationTokens, cacheReadTokens, thinkingTokens),
//   src/protocol/session-settings-schema.ts @ 3b01aea80691e973faf6dde67b9de7adef7df009 (`tokenUsage`
//   beside `inclusiveTokenUsage` and `childInclusiveTokenUsageBySessionId`), src/protocol/messages.ts
//   @ 60621c2b5e189c2ffa350ac5eda33f1bc3ef129d (content blocks text, thinking, tool_use, tool_result),
//   src/schemas/server.ts (`callingSessionId`/`callingToolUseId`: a sub-agent's own session);
// - the on-disk line shapes of real sessions as public readers built on them read them:
//   jazzyalex/agent-sessions AgentSessions/Services/DroidSessionParser.swift @ 1561b6f9c5fef9f43883f5c9200c64407fca4a94
//   and Resources/Fixtures/stage0/agents/droid/session_store_schema_drift.jsonl (`{type:"message",
//   id, timestamp, parentId?, message:{role, content:[…]}}`, tool results as `tool_result` blocks
//   with `tool_use_id` in user messages, `<system-reminder>` blocks injected into user text), and
//   ryoppippi/ccusage apps/ccusage/src/adapter/droid/parser.ts @ acf53141f7f1fa4db6149f704ca347d816243ab3
//   (session tokens read from `<id>.settings.json` `tokenUsage`, model from its `model`).
export { droidReader } from './reader.js';
