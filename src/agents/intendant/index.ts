// Intendant: native session folders under `~/.intendant/logs/<id>/`.
export { intendantReader } from './reader.js';
export { readIntendantName } from './meta.js';
export { parseIntendantSession, type IntendantParse } from './parse-session.js';
export type { MessageEntry, MessageLocator } from './messages.js';
