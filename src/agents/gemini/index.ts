// Gemini CLI: chat recordings under `~/.gemini/tmp/<project-hash>/chats/`.
export { geminiReader } from './reader.js';
