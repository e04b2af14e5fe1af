// Custody's public surface: the catalog (locate, read, follow, keep) and its types and errors.
export { Catalog, type CatalogOptions, type KeepOptions, type KeepReport } from './catalog.js';
export { CustodyError, custodyErrorCodes, isCustodyError, maxPageSize, type CustodyErrorCode } from './errors.js';
export type { Entry } from './entry.js';
export type { EntryPage, PageSession } from './pages.js';
export type { FollowBatch, FollowOptions, RestartReason } from './follow.js';
export type { Located, RecordRoot, Scope } from './locate.js';
export type { SessionKeepReport, KeepTotals, FileFailure } from './keep.js';
export { keepHome } from './keep.js';
export { listInstallations, derivedKey, type Installation } from './installation.js';
export { withKeptRoots, vendorHomes } from './kept-homes.js';
export { readFacts, type CustodyFacts } from './facts.js';
export { keptRoot } from './paths.js';
