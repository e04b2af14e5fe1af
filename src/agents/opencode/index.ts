// OpenCode: the JSON tree under `storage/` and the SQLite database(s) of newer versions.
export { createOpencodeReader, opencodeReader } from './reader.js';
