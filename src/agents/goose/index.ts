// Goose (block/goose): `sessions/sessions.db` under its data directory (SQLite since v1.10), and
// the one-file-per-session JSONL of older versions left beside it. Format read from the source:
// crates/goose/src/session/storage.rs and migrations.rs at commit 865e4a030a67eb0c51869874b9c758cb1eb10595
// (schema version 13: `sessions`, `messages`), crates/goose/src/conversation/message.rs at commit
// 05132966065f7dd80b97af7d080a41328d103073 (content items `text`, `toolRequest`, `toolResponse`,
// `thinking`, `systemNotification`… and `metadata.userVisible`), crates/goose/src/session/legacy.rs at
// 0fc5e54062be2712f705269265e928c17bceee83 and storage.rs at 01a262b2 (JSONL: a metadata line, then
// messages), crates/goose/src/config/paths.rs at 0780e228 (the data directory).
export { createGooseReader, gooseReader } from './reader.js';
