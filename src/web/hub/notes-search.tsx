// Search over the hub's notes (GET /v1/search) with the project filter: results best first, the
// query's words marked in each snippet.
import { useEffect, useState } from 'preact/hooks';
import type { NoteHit } from '../../hub/store.js';
import { visibleText } from '../visible-text.js';
import { searchNotes } from './hub-api.js';

/** The snippet cut around the query's words (case-insensitive): [text, marked] pieces in order. */
export function termPieces(text: string, query: string): [string, boolean][] {
  const words = query
    .split(/\s+/)
    .filter((w) => w.length > 0)
    .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  if (words.length === 0) return [[text, false]];
  const re = new RegExp(`(${words.join('|')})`, 'gi');
  return text
    .split(re)
    .filter((p) => p !== '')
    .map((p) => [p, words.some((w) => new RegExp(`^${w}$`, 'i').test(p))]);
}

export function NotesSearch({ query, project }: { query: string; project: string }) {
  const [results, setResults] = useState<NoteHit[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const abort = new AbortController();
    setError(null);
    const timer = setTimeout(() => {
      searchNotes(query, project, abort.signal).then(
        (b) => setResults(b.results),
        (e: unknown) => {
          if (!abort.signal.aborted) setError(e instanceof Error ? e.message : String(e));
        },
      );
    }, 200);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [query, project]);
  return (
    <section class="hub-notes" aria-label="Notes">
      <p class="muted" role="status">
        {error !== null
          ? `Search failed: ${error}`
          : results === null
            ? 'Searching notes…'
            : `${results.length} notes match “${query}”${project !== '' ? ` in ${project}` : ''}`}
      </p>
      <ul aria-label="Note results" class="hub-note-list">
        {(results ?? []).map((n) => (
          <li key={`${n.scope}/${n.slug}`}>
            <h3>{visibleText(n.title || n.slug)}</h3>
            <div class="muted">
              {visibleText([n.project ?? 'no project', n.scope, `v${n.version}`, n.updated_at.slice(0, 10)].join(' · '))}
            </div>
            <p class="hub-snippet">
              {termPieces(n.snippet, query).map(([t, m], i) =>
                m ? <mark key={i}>{visibleText(t)}</mark> : <span key={i}>{visibleText(t)}</span>,
              )}
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}
