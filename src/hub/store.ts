// The hub's one store contract (issue 13): identities, the sources ledger keyed (scope, sha256),
// notes with versions, and full-text search. `sqlite/` and `postgres/` implement it through the
// shared SQL in `sql-store.ts`; one conformance suite (`store.conformance.ts`) runs against both.

/** Source kinds a listing may name (seed 003, livingbrain's closed set); only `agent_log` is ingested here. */
export const sourceKinds = ['agent_log', 'chat', 'mail', 'import', 'git', 'monitoring', 'radar', 'note'] as const;
export type SourceKind = (typeof sourceKinds)[number];

/** Where a source or note lives: the uploader's own, or the workspace's (visible to its members). */
export const scopeNames = ['personal', 'shared'] as const;
export type ScopeName = (typeof scopeNames)[number];

export const dialects = ['sqlite', 'postgres'] as const;
export type Dialect = (typeof dialects)[number];

/** Who is asking: resolved from a token, never from anything the client says about itself. */
export interface Principal {
  userId: string;
  user: string;
  workspaceId: string;
  workspace: string;
}

export interface AddedUser {
  user: string;
  workspace: string;
  /** False when the user existed already (a fresh token was issued beside the old ones). */
  createdUser: boolean;
  createdWorkspace: boolean;
}

/** A ledger row as listings show it: never the body. */
export interface SourceRow {
  id: string;
  kind: SourceKind;
  scope: ScopeName;
  path: string;
  title: string;
  project: string | null;
  agent: string | null;
  session_id: string | null;
  started_at: string | null;
  sha256: string;
  bytes: number;
  created_at: string;
}

export interface SourceWithBody extends SourceRow {
  body: string;
}

/** What ingest stores: already validated, redacted and hashed by the caller. */
export interface SourceInput {
  kind: SourceKind;
  scope: ScopeName;
  path: string;
  title: string;
  project: string | null;
  agent: string | null;
  session_id: string | null;
  started_at: string | null;
  body: string;
  sha256: string;
  /** How many values redaction on arrival replaced (recorded in the arrivals audit). */
  redactions: number;
}

export interface IngestResult {
  row: SourceRow;
  /** True for a new row (201), false when (scope, sha256) was already held (200). */
  created: boolean;
}

export interface SourceQuery {
  kind?: SourceKind;
  project?: string;
  agent?: string;
  limit: number;
  /** Only rows with an id below this one (the previous page's last id). */
  before?: string;
}

export interface SourcePage {
  rows: SourceRow[];
  /** The last id of this page when more rows follow, else null. */
  next: string | null;
}

/** A listing page as the database rendered it: `json` is the JSON array of the page's `SourceRow`s. */
export interface SourcePageJson {
  json: string;
  next: string | null;
}

export interface ProjectCount {
  project: string;
  sources: number;
}

export interface NoteInput {
  scope: ScopeName;
  slug: string;
  title: string;
  project: string | null;
  body: string;
}

export interface NotePatch {
  title?: string;
  project?: string | null;
  body?: string;
}

export const noteAuthors = ['machine', 'person'] as const;
export type NoteAuthor = (typeof noteAuthors)[number];

export interface NoteRow {
  id: string;
  scope: ScopeName;
  slug: string;
  title: string;
  project: string | null;
  body: string;
  version: number;
  author: NoteAuthor;
  created_at: string;
  updated_at: string;
}

export type NoteWrite =
  | { status: 'written'; note: NoteRow; created: boolean }
  | { status: 'unchanged'; note: NoteRow }
  /** A person edited the page since the machine last wrote it: the machine does not overwrite. */
  | { status: 'refused'; note: NoteRow; reason: string };

export interface SearchQuery {
  /** Words to find (already split; at least one). */
  terms: string[];
  project?: string;
  limit: number;
}

export interface NoteHit {
  slug: string;
  scope: ScopeName;
  title: string;
  project: string | null;
  snippet: string;
  version: number;
  updated_at: string;
}

export interface MigrationReport {
  /** Versions this call applied (empty when another process, or an earlier start, had). */
  applied: number[];
  current: number;
}

export interface HubStore {
  readonly dialect: Dialect;
  /** Applies pending migrations in one transaction; a second process doing the same waits, then finds none. */
  migrate(): Promise<MigrationReport>;

  /** Creates the user (and the workspace when new) and files a token hash for them; `now` is ISO-8601. */
  addUser(name: string, workspace: string, tokenHash: string, now: string): Promise<AddedUser>;
  /** Revokes every live token of the user; how many. A missing user is a `not_found` error. */
  revokeTokens(name: string, now: string): Promise<number>;
  /** The principal a live token hash belongs to, or null (unknown or revoked). */
  authenticate(tokenHash: string): Promise<Principal | null>;

  /** Files a source in one transaction: a new row, or the row already held under (scope, sha256). */
  ingestSource(who: Principal, input: SourceInput, id: string, now: string): Promise<IngestResult>;
  /** Which of `hashes` the scope already holds. */
  heldHashes(who: Principal, scope: ScopeName, hashes: readonly string[]): Promise<string[]>;
  /**
   * A listing page as JSON text, each row rendered by the database: the route sends it as it comes,
   * with no row objects built and serialised again (most of a listing's cost in JavaScript).
   */
  listSourcesJson(who: Principal, query: SourceQuery): Promise<SourcePageJson>;
  /** The same page as objects (`listSourcesJson` parsed). */
  listSources(who: Principal, query: SourceQuery): Promise<SourcePage>;
  /** The source with its body, or null when it is missing or not the asker's to read (the same answer). */
  readSource(who: Principal, id: string): Promise<SourceWithBody | null>;
  /** Projects of the sources the asker may read, alphabetically, with counts (at most 500). */
  projects(who: Principal, kind?: SourceKind): Promise<ProjectCount[]>;

  /** The note filed under (scope, slug) of the asker's, or null. */
  readNote(who: Principal, scope: ScopeName, slug: string): Promise<NoteRow | null>;
  /** The machine's write of a note, idempotent by (scope, slug). */
  putNote(who: Principal, input: NoteInput, id: string, now: string): Promise<NoteWrite>;
  /** A person's edit of a note the asker may read; null when there is none. */
  editNote(who: Principal, slug: string, patch: NotePatch, now: string): Promise<NoteRow | null>;
  searchNotes(who: Principal, query: SearchQuery): Promise<NoteHit[]>;

  close(): Promise<void>;
}
