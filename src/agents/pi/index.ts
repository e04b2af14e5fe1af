// Pi: the reader, and the tree parsing a message-index extractor reuses.
export { makePiReader, parsePi, piReader } from './reader.js';
export { defaultPiBounds, type PiBounds } from './bounds.js';
export { readPiFile, type PiFile } from './session-file.js';
export { splitBranches, type Branches } from './branch.js';
export { piMessages, type PiMessage } from './messages.js';
