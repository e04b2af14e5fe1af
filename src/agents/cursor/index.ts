// Cursor Agent: its JSONL agent transcripts `~/.cursor/projects/<project>/agent-transcripts/<id>/<id>.jsonl`
// (written since about February 2026; sub-agents' under `<id>/subagents/`). Cursor is closed source:
// the format is as a public reader documents and reads it — jcontini/agentos-community,
// skills/cursor/cursor.py at commit 53b6257ad4179e7b6f7bd2007e7a58d560c060f0 (lines `{role,
// message: {content: [{type: "text", text}]}}`, the typed prompt inside `<user_query>` tags, the rest
// of a user line context Cursor adds). Read: those facts only. Not read: the CLI's
// `~/.cursor/chats/<hash>/<id>/store.db` (a content-addressed blob store whose root is protobuf; no
// writer code or real sample was found to take its encoding from), content items other than text, and
// token counts (the transcripts state none).
export { cursorReader } from './reader.js';
