// Aider: runs in `<repo>/.aider.chat.history.md` (sources: README.md here).
export { aiderReader } from './reader.js';
