// The hub's wire shapes (issue 13), for the web app and the sync client: every answer is JSON with
// `ok`; an error is `{ok:false, error:{code, message}}` (the shape `serve` answers with).
import type { NoteHit, ProjectCount, ScopeName, SourceRow } from './store.js';

export type { ErrorBody } from '../server/api-types.js';

/** GET /v1/health (no credentials needed). */
export interface HubHealthBody {
  ok: true;
  version: string;
  store: 'sqlite' | 'postgres';
}

/** POST /v1/session, GET /v1/session. */
export interface SessionBody {
  ok: true;
  user: string;
  workspace: string;
}

/** POST /v1/sources: 201 when new, 200 when (scope, sha256) was held already. */
export interface IngestBody extends SourceRow {
  ok: true;
  created: boolean;
  /** Values redaction on arrival replaced (0 when the client had redacted everything). */
  redacted: number;
}

/** POST /v1/sources/check. */
export interface CheckBody {
  ok: true;
  /** The asked hashes the scope already holds, in the order asked. */
  held: string[];
}

/** GET /v1/sources: newest first; `cursor` for the next page, null on the last. */
export interface SourcesBody {
  ok: true;
  sources: SourceRow[];
  cursor: string | null;
}

/** GET /v1/sources/{id}: the row and its body (the record JSON, as stored). */
export interface SourceBody extends SourceRow {
  ok: true;
  body: string;
}

/** GET /v1/sources/projects. */
export interface ProjectsBody {
  ok: true;
  projects: ProjectCount[];
}

/** POST /v1/notes (201 new page, 200 new version or unchanged; 409 `note_edited` when refused) and PATCH /v1/notes/{slug}. */
export interface NoteWriteBody {
  ok: true;
  status: 'written' | 'unchanged';
  /** `<scope>/<slug>`. */
  id: string;
  slug: string;
  scope: ScopeName;
  title: string;
  project: string | null;
  version: number;
  redacted: number;
}

/** GET /v1/search: best first; the project filter applied before the limit. */
export interface SearchBody {
  ok: true;
  results: NoteHit[];
}
