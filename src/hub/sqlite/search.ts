// Full-text search over notes on SQLite: FTS5 with bm25 (title weighted over body), the scope and
// project filters in the same query, so the limit counts only what the asker may read.
import type { SearchDialect } from '../sql-store.js';

/** Each word quoted (FTS5 syntax cannot leak in), all required. */
function matchExpression(terms: readonly string[]): string {
  return terms.map((t) => `"${t.replace(/"/g, '""')}"`).join(' AND ');
}

export const sqliteSearch: SearchDialect = (scopes, query) => {
  const params: (string | number)[] = [matchExpression(query.terms), ...scopes];
  let where = '';
  if (query.project !== undefined) {
    where = ' AND n.project = ?';
    params.push(query.project);
  }
  params.push(query.limit);
  const sql = `SELECT n.slug, n.scope_key, n.title, n.project, n.version, n.updated_at,
      snippet(notes_fts, 1, '', '', '…', 24) AS snippet
    FROM notes_fts JOIN notes n ON n.rowid = notes_fts.rowid
    WHERE notes_fts MATCH ? AND n.scope_key IN (${scopes.map(() => '?').join(', ')})${where}
    ORDER BY bm25(notes_fts, 4.0, 1.0), n.id DESC
    LIMIT ?`;
  return { sql, params };
};
