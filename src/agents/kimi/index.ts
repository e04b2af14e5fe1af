// Kimi Code: the reader, and the wire parsing a message-index extractor reuses.
export { kimiReader, makeKimiReader, parseKimi } from './reader.js';
export { defaultKimiBounds, type KimiBounds } from './bounds.js';
export { readKimiSession, type KimiSessionLogs } from './session-read.js';
export { wireMessages, type KimiMessage } from './messages.js';
export type { Supersession, WireEntry, WireLog } from './wire-entry.js';
