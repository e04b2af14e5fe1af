// Full-text search over notes on PostgreSQL: the generated `search` tsvector ('simple', title
// weighted A), the scope and project filters before the limit; headlines only for the rows kept.
import type { SearchDialect } from '../sql-store.js';

export const postgresSearch: SearchDialect = (scopes, query) => {
  const params: (string | number)[] = [query.terms.join(' '), ...scopes];
  let where = '';
  if (query.project !== undefined) {
    where = ' AND n.project = ?';
    params.push(query.project);
  }
  params.push(query.limit);
  const sql = `SELECT hit.slug, hit.scope_key, hit.title, hit.project, hit.version, hit.updated_at,
      ts_headline('simple', hit.body, hit.q, 'StartSel="", StopSel="", MaxWords=30, MinWords=12, MaxFragments=1') AS snippet
    FROM (
      SELECT n.slug, n.scope_key, n.title, n.project, n.version, n.updated_at, n.body, n.id, q.q, ts_rank(n.search, q.q) AS rank
      FROM notes n, (SELECT plainto_tsquery('simple', ?) AS q) q
      WHERE n.search @@ q.q AND n.scope_key IN (${scopes.map(() => '?').join(', ')})${where}
      ORDER BY rank DESC, n.id DESC
      LIMIT ?
    ) hit
    ORDER BY hit.rank DESC, hit.id DESC`;
  return { sql, params };
};
