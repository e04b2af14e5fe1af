// The parts the session list does not need for its first paint, in one chunk the page fetches just
// after it (one request rather than one per part; uPlot and marked are most of it).
export { DeepSearch } from './deep-search.js';
export { Palette } from './palette.js';
export { Transcript } from './transcript.js';
export { UsageChart } from './usage-chart.js';
