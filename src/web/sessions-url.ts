// The session list's URL, shared by the page (which asks for it) and the server (which names the
// first page in index.html as a preload, so that request leaves with the HTML, not after the script).

/** Sessions in the first page: enough to fill the list at once; the rest streams in after it. */
export const firstSessionsPage = 100;

export function sessionsUrl(limit: number, cursor: string | null): string {
  const q = new URLSearchParams({ limit: String(limit) });
  if (cursor !== null) q.set('cursor', cursor);
  return `/api/sessions?${q}`;
}

/** The first page's URL exactly as the page asks for it (a preload is reused only on an exact match). */
export const firstSessionsUrl = sessionsUrl(firstSessionsPage, null);
