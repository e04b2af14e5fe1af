// Crush (charmbracelet/crush): one SQLite database `crush.db` per project data directory
// (`<project>/.crush` by default), the projects listed in `projects.json` of its global data
// directory. Format read from the source at commit 37f36e93824e5c4f892e4a817f7f628e2682fe14
// (nightly after v0.90.0, 2026-08-21): internal/db/migrations/*.sql (schema), internal/message/
// {content,message}.go (the `parts` JSON), internal/session/session.go (`<message id>$$<tool call
// id>` subagent sessions, `title-<id>` title sessions), internal/agent/agent.go (token counters),
// internal/projects/projects.go and internal/config/load.go (projects.json, data directories).
export { createCrushReader, crushReader } from './reader.js';
