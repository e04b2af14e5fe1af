// The hub store in SQL both dialects speak (`?` placeholders, ON CONFLICT, RETURNING-free): the
// ledger, identities and notes rules live here once; a driver folder adds its driver and its
// full-text query. Every visibility rule is in the WHERE clause, before any LIMIT.
import { ulid } from 'ulid';
import { AgentlogError } from '../errors.js';
import { applyMigrations, migrationsDir, readMigrations } from './migrations.js';
import { StampedCache } from './page-cache.js';
import { isUniqueViolation, type SqlDriver, type SqlRunner, type SqlValue } from './sql-driver.js';
import type {
  AddedUser,
  HubStore,
  IngestResult,
  MigrationReport,
  NoteHit,
  NoteInput,
  NotePatch,
  NoteRow,
  NoteWrite,
  Principal,
  ProjectCount,
  ScopeName,
  SearchQuery,
  SourceInput,
  SourceKind,
  SourcePage,
  SourcePageJson,
  SourceQuery,
  SourceRow,
  SourceWithBody,
} from './store.js';
import { noteTitle } from './titles.js';

/** The full-text query of a dialect: scopes and project filter inside, limit last. */
export type SearchDialect = (scopes: readonly string[], query: SearchQuery) => { sql: string; params: SqlValue[] };

/** What the dialects write differently besides the driver. */
export interface DialectSql {
  search: SearchDialect;
  /** An expression giving the text of one JSON object of these (key, SQL expression) pairs, keys in order. */
  jsonObject(fields: readonly (readonly [string, string])[]): string;
}

/** The key a row is filed under: the person's own (`u:`) or the workspace's (`w:`). */
export function scopeKey(who: Principal, scope: ScopeName): string {
  return scope === 'personal' ? `u:${who.userId}` : `w:${who.workspaceId}`;
}

/** Every scope key the asker may read: their own and their workspace's, never another's. */
export function readableScopes(who: Principal): [string, string] {
  return [`u:${who.userId}`, `w:${who.workspaceId}`];
}

const scopeOf = (key: string): ScopeName => (key.startsWith('u:') ? 'personal' : 'shared');

interface SourceDbRow {
  id: string;
  scope_key: string;
  kind: string;
  path: string;
  title: string;
  project: string | null;
  agent: string | null;
  session_id: string | null;
  started_at: string | null;
  sha256: string;
  bytes: number | string;
  created_at: string;
}

interface NoteDbRow {
  id: string;
  scope_key: string;
  slug: string;
  title: string;
  project: string | null;
  body: string;
  version: number | string;
  author: string;
  created_at: string;
  updated_at: string;
}

const sourceColumns = 'id, scope_key, kind, path, title, project, agent, session_id, started_at, sha256, bytes, created_at';

/** A listing row as the database renders it in JSON: the same fields, in the same order, as `toSource`. */
const sourceJsonFields = [
  ['id', 'id'],
  ['kind', 'kind'],
  ['scope', "CASE WHEN substr(scope_key, 1, 2) = 'u:' THEN 'personal' ELSE 'shared' END"],
  ['path', 'path'],
  ['title', 'title'],
  ['project', 'project'],
  ['agent', 'agent'],
  ['session_id', 'session_id'],
  ['started_at', 'started_at'],
  ['sha256', 'sha256'],
  ['bytes', 'bytes'],
  ['created_at', 'created_at'],
] as const;
const noteColumns = 'id, scope_key, slug, title, project, body, version, author, created_at, updated_at';

function toSource(r: SourceDbRow): SourceRow {
  return {
    id: r.id,
    kind: r.kind as SourceKind,
    scope: scopeOf(r.scope_key),
    path: r.path,
    title: r.title,
    project: r.project,
    agent: r.agent,
    session_id: r.session_id,
    started_at: r.started_at,
    sha256: r.sha256,
    bytes: Number(r.bytes),
    created_at: r.created_at,
  };
}

function toNote(r: NoteDbRow): NoteRow {
  return {
    id: r.id,
    scope: scopeOf(r.scope_key),
    slug: r.slug,
    title: r.title,
    project: r.project,
    body: r.body,
    version: Number(r.version),
    author: r.author === 'person' ? 'person' : 'machine',
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

/** The first `limit` rows of two lists each sorted by id descending (ULIDs: text order is time order). */
function mergeNewestFirst<T extends { id: string }>(a: readonly T[], b: readonly T[], limit: number): T[] {
  const out: T[] = [];
  let i = 0;
  let j = 0;
  while (out.length < limit) {
    const x = a[i];
    const y = b[j];
    if (x === undefined && y === undefined) break;
    if (y === undefined || (x !== undefined && x.id > y.id)) {
      out.push(x as T);
      i++;
    } else {
      out.push(y);
      j++;
    }
  }
  return out;
}

const marks = (n: number): string => Array.from({ length: n }, () => '?').join(', ');

export class SqlStore implements HubStore {
  readonly dialect: SqlDriver['dialect'];

  /** The listing's row expression, written once for the dialect. */
  private readonly sourceJson: string;

  /** Listing pages while nothing has been committed since (only where the driver can tell). */
  private readonly pages = new StampedCache<SourcePageJson>(512);

  constructor(
    readonly driver: SqlDriver,
    private readonly sql: DialectSql,
  ) {
    this.dialect = driver.dialect;
    this.sourceJson = sql.jsonObject(sourceJsonFields);
  }

  migrate(now: string = new Date().toISOString()): Promise<MigrationReport> {
    return applyMigrations(this.driver, readMigrations(migrationsDir(this.dialect)), now);
  }

  /** Two writers racing to create the same unique row: the loser runs its transaction again and finds it. */
  private async retryingUnique<T>(fn: (tx: SqlRunner) => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.driver.transaction(fn);
      } catch (error) {
        if (attempt >= 2 || !isUniqueViolation(error)) throw error;
      }
    }
  }

  addUser(name: string, workspace: string, tokenHash: string, now: string): Promise<AddedUser> {
    const t = Date.parse(now);
    return this.retryingUnique(async (tx) => {
      let createdWorkspace = false;
      let ws = (await tx.all<{ id: string }>('SELECT id FROM workspaces WHERE name = ?', [workspace]))[0];
      if (ws === undefined) {
        ws = { id: ulid(t) };
        await tx.run('INSERT INTO workspaces (id, name, created_at) VALUES (?, ?, ?)', [ws.id, workspace, now]);
        createdWorkspace = true;
      }
      let createdUser = false;
      let user = (await tx.all<{ id: string; workspace_id: string }>('SELECT id, workspace_id FROM users WHERE name = ?', [name]))[0];
      if (user === undefined) {
        user = { id: ulid(t), workspace_id: ws.id };
        await tx.run('INSERT INTO users (id, name, workspace_id, created_at) VALUES (?, ?, ?, ?)', [user.id, name, ws.id, now]);
        createdUser = true;
      } else if (user.workspace_id !== ws.id) {
        throw new AgentlogError('HubUserElsewhere', 'usage', `user ${name} belongs to another workspace; a user has one workspace`);
      }
      await tx.run('INSERT INTO tokens (hash, user_id, created_at) VALUES (?, ?, ?)', [tokenHash, user.id, now]);
      return { user: name, workspace, createdUser, createdWorkspace };
    });
  }

  async revokeTokens(name: string, now: string): Promise<number> {
    return this.driver.transaction(async (tx) => {
      const user = (await tx.all<{ id: string }>('SELECT id FROM users WHERE name = ?', [name]))[0];
      if (user === undefined) throw new AgentlogError('HubUserNotFound', 'not_found', `no hub user called ${name}`);
      return tx.run('UPDATE tokens SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL', [now, user.id]);
    });
  }

  async authenticate(tokenHash: string): Promise<Principal | null> {
    const rows = await this.driver.all<{ user_id: string; user_name: string; workspace_id: string; workspace_name: string }>(
      `SELECT u.id AS user_id, u.name AS user_name, w.id AS workspace_id, w.name AS workspace_name
        FROM tokens t JOIN users u ON u.id = t.user_id JOIN workspaces w ON w.id = u.workspace_id
        WHERE t.hash = ? AND t.revoked_at IS NULL`,
      [tokenHash],
    );
    const r = rows[0];
    return r === undefined ? null : { userId: r.user_id, user: r.user_name, workspaceId: r.workspace_id, workspace: r.workspace_name };
  }

  ingestSource(who: Principal, input: SourceInput, id: string, now: string): Promise<IngestResult> {
    const key = scopeKey(who, input.scope);
    return this.driver.transaction(async (tx) => {
      const inserted = await tx.run(
        `INSERT INTO sources (id, scope_key, workspace_id, owner_id, kind, path, title, project, agent, session_id, started_at, sha256, bytes, created_at)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
          ON CONFLICT (scope_key, sha256) DO NOTHING`,
        [
          id,
          key,
          who.workspaceId,
          who.userId,
          input.kind,
          input.path,
          input.title,
          input.project,
          input.agent,
          input.session_id,
          input.started_at,
          input.sha256,
          Buffer.byteLength(input.body, 'utf8'),
          now,
        ],
      );
      if (inserted === 1) await tx.run('INSERT INTO source_bodies (source_id, body) VALUES (?, ?)', [id, input.body]);
      const row = (
        await tx.all<SourceDbRow>(`SELECT ${sourceColumns} FROM sources WHERE scope_key = ? AND sha256 = ?`, [key, input.sha256])
      )[0];
      if (row === undefined) throw new AgentlogError('HubIngestLost', 'failed', 'the source row vanished during ingest');
      // A session filed before projects existed gains its project on a later upload; one that has a project keeps it.
      if (inserted === 0 && row.project === null && input.project !== null) {
        await tx.run('UPDATE sources SET project = ? WHERE id = ? AND project IS NULL', [input.project, row.id]);
        row.project = input.project;
      }
      await tx.run('INSERT INTO arrivals (id, source_id, user_id, created, redactions, at) VALUES (?, ?, ?, ?, ?, ?)', [
        ulid(Date.parse(now)),
        row.id,
        who.userId,
        inserted,
        input.redactions,
        now,
      ]);
      return { row: toSource(row), created: inserted === 1 };
    });
  }

  async heldHashes(who: Principal, scope: ScopeName, hashes: readonly string[]): Promise<string[]> {
    if (hashes.length === 0) return [];
    const rows = await this.driver.all<{ sha256: string }>(
      `SELECT sha256 FROM sources WHERE scope_key = ? AND sha256 IN (${marks(hashes.length)})`,
      [scopeKey(who, scope), ...hashes],
    );
    const held = new Set(rows.map((r) => r.sha256));
    return hashes.filter((h) => held.has(h));
  }

  async listSourcesJson(who: Principal, q: SourceQuery): Promise<SourcePageJson> {
    // Read before the query: a commit after this moves the stamp past the page filed under it.
    const stamp = this.driver.changeStamp();
    const scopes = readableScopes(who);
    const key = JSON.stringify([scopes, q.kind, q.project, q.agent, q.before, q.limit]);
    const kept = stamp === null ? undefined : this.pages.get(stamp, key);
    if (kept !== undefined) return kept;
    const page = await this.readSourcePage(scopes, q);
    if (stamp !== null) this.pages.set(stamp, key, page);
    return page;
  }

  private async readSourcePage(scopes: readonly [string, string], q: SourceQuery): Promise<SourcePageJson> {
    let filters = '';
    const filterParams: SqlValue[] = [];
    for (const [column, value] of [
      ['kind', q.kind],
      ['project', q.project],
      ['agent', q.agent],
    ] as const) {
      if (value === undefined) continue;
      filters += ` AND ${column} = ?`;
      filterParams.push(value);
    }
    if (q.before !== undefined) {
      filters += ' AND id < ?';
      filterParams.push(q.before);
    }
    // One index range per scope (scope_key, id), each read backwards for at most a page, merged
    // here: `scope_key IN (…) ORDER BY id` would read and sort every row the asker may see, and a
    // UNION ALL of the two ranges made SQLite sort both again in temporary B-trees (twice the cost).
    const range = `SELECT id, ${this.sourceJson} AS json FROM sources WHERE scope_key = ?${filters} ORDER BY id DESC LIMIT ?`;
    let rows: { id: string; json: string }[];
    if (this.driver.dialect === 'postgres') {
      // PostgreSQL merges the two ranges itself (a merge append, no sort) in one round trip; two
      // statements would hold two pooled connections per request and halve the listing rate.
      const union = `(${range}) UNION ALL (${range}) ORDER BY id DESC LIMIT ?`;
      rows = await this.driver.all<{ id: string; json: string }>(
        union,
        scopes.flatMap((key) => [key, ...filterParams, q.limit + 1]).concat(q.limit + 1),
      );
    } else {
      const [mine, team] = await Promise.all(
        scopes.map((key) => this.driver.all<{ id: string; json: string }>(range, [key, ...filterParams, q.limit + 1])),
      );
      rows = mergeNewestFirst(mine ?? [], team ?? [], q.limit + 1);
    }
    const page = rows.slice(0, q.limit);
    return {
      json: `[${page.map((r) => r.json).join(',')}]`,
      next: rows.length > q.limit ? (page.at(-1)?.id ?? null) : null,
    };
  }

  async listSources(who: Principal, q: SourceQuery): Promise<SourcePage> {
    const { json, next } = await this.listSourcesJson(who, q);
    return { rows: JSON.parse(json) as SourceRow[], next };
  }

  async readSource(who: Principal, id: string): Promise<SourceWithBody | null> {
    const rows = await this.driver.all<SourceDbRow & { body: string }>(
      `SELECT ${sourceColumns
        .split(', ')
        .map((c) => `s.${c}`)
        .join(', ')}, b.body
        FROM sources s JOIN source_bodies b ON b.source_id = s.id
        WHERE s.id = ? AND s.scope_key IN (?, ?)`,
      [id, ...readableScopes(who)],
    );
    const r = rows[0];
    return r === undefined ? null : { ...toSource(r), body: r.body };
  }

  async projects(who: Principal, kind?: SourceKind): Promise<ProjectCount[]> {
    const params: SqlValue[] = [...readableScopes(who)];
    let where = 'scope_key IN (?, ?) AND project IS NOT NULL';
    if (kind !== undefined) {
      where += ' AND kind = ?';
      params.push(kind);
    }
    const rows = await this.driver.all<{ project: string; n: number | string }>(
      `SELECT project, COUNT(*) AS n FROM sources WHERE ${where} GROUP BY project`,
      params,
    );
    // Sorted here, byte by byte, so both databases give the same order whatever their collation.
    return rows
      .map((r) => ({ project: r.project, sources: Number(r.n) }))
      .sort((a, b) => (a.project < b.project ? -1 : a.project > b.project ? 1 : 0))
      .slice(0, 500);
  }

  private async noteFor(tx: SqlRunner, key: string, slug: string): Promise<NoteDbRow | undefined> {
    return (await tx.all<NoteDbRow>(`SELECT ${noteColumns} FROM notes WHERE scope_key = ? AND slug = ?`, [key, slug]))[0];
  }

  private async writeVersion(tx: SqlRunner, who: Principal, n: NoteRow): Promise<void> {
    await tx.run(
      'INSERT INTO note_versions (note_id, version, title, project, body, author, user_id, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      [n.id, n.version, n.title, n.project, n.body, n.author, who.userId, n.updated_at],
    );
  }

  async readNote(who: Principal, scope: ScopeName, slug: string): Promise<NoteRow | null> {
    const row = await this.noteFor(this.driver, scopeKey(who, scope), slug);
    return row === undefined ? null : toNote(row);
  }

  putNote(who: Principal, input: NoteInput, id: string, now: string): Promise<NoteWrite> {
    const key = scopeKey(who, input.scope);
    const title = noteTitle(input.title, input.body, input.project, input.slug);
    return this.retryingUnique(async (tx): Promise<NoteWrite> => {
      const current = await this.noteFor(tx, key, input.slug);
      if (current === undefined) {
        const note: NoteRow = {
          id,
          scope: input.scope,
          slug: input.slug,
          title,
          project: input.project,
          body: input.body,
          version: 1,
          author: 'machine',
          created_at: now,
          updated_at: now,
        };
        await tx.run(
          `INSERT INTO notes (id, scope_key, workspace_id, owner_id, slug, title, project, body, version, author, created_at, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          [id, key, who.workspaceId, who.userId, input.slug, title, input.project, input.body, 1, 'machine', now, now],
        );
        await this.writeVersion(tx, who, note);
        return { status: 'written', note, created: true };
      }
      const old = toNote(current);
      if (old.title === title && old.project === input.project && old.body === input.body) return { status: 'unchanged', note: old };
      if (old.author === 'person')
        return {
          status: 'refused',
          note: old,
          reason: `a person edited this page (version ${old.version}, ${old.updated_at}); the machine does not overwrite a person's edit`,
        };
      const note: NoteRow = {
        ...old,
        title,
        project: input.project,
        body: input.body,
        version: old.version + 1,
        author: 'machine',
        updated_at: now,
      };
      await this.updateNote(tx, note);
      await this.writeVersion(tx, who, note);
      return { status: 'written', note, created: false };
    });
  }

  private async updateNote(tx: SqlRunner, n: NoteRow): Promise<void> {
    await tx.run('UPDATE notes SET title = ?, project = ?, body = ?, version = ?, author = ?, updated_at = ? WHERE id = ?', [
      n.title,
      n.project,
      n.body,
      n.version,
      n.author,
      n.updated_at,
      n.id,
    ]);
  }

  editNote(who: Principal, slug: string, patch: NotePatch, now: string): Promise<NoteRow | null> {
    return this.driver.transaction(async (tx) => {
      // The asker's own page first when their workspace shares one under the same slug.
      const rows = await tx.all<NoteDbRow>(`SELECT ${noteColumns} FROM notes WHERE slug = ? AND scope_key IN (?, ?) ORDER BY scope_key`, [
        slug,
        ...readableScopes(who),
      ]);
      const current = rows[0];
      if (current === undefined) return null;
      const old = toNote(current);
      const body = patch.body ?? old.body;
      const project = patch.project === undefined ? old.project : patch.project;
      const title = noteTitle(patch.title ?? old.title, body, project, slug);
      if (title === old.title && body === old.body && project === old.project) return old;
      const note: NoteRow = { ...old, title, project, body, version: old.version + 1, author: 'person', updated_at: now };
      await this.updateNote(tx, note);
      await this.writeVersion(tx, who, note);
      return note;
    });
  }

  async searchNotes(who: Principal, query: SearchQuery): Promise<NoteHit[]> {
    const { sql, params } = this.sql.search(readableScopes(who), query);
    const rows = await this.driver.all<{
      slug: string;
      scope_key: string;
      title: string;
      project: string | null;
      version: number | string;
      updated_at: string;
      snippet: string | null;
    }>(sql, params);
    return rows.map((r) => ({
      slug: r.slug,
      scope: scopeOf(r.scope_key),
      title: r.title,
      project: r.project,
      snippet: (r.snippet ?? '').replace(/\s+/g, ' ').trim(),
      version: Number(r.version),
      updated_at: r.updated_at,
    }));
  }

  close(): Promise<void> {
    return this.driver.close();
  }
}
