// Codex: rollouts under `~/.codex/sessions/YYYY/MM/DD/`.
export { codexReader } from './reader.js';
