// Cline and Roo Code: VS Code extensions keeping each task in `<storage>/tasks/<id>/` (sources: README.md here).
export { clineReader, rooCodeReader } from './reader.js';
