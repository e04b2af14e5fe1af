// The only link targets a log may produce: http(s) and mailto (design brief "Safety"); anything
// else (javascript:, data:, relative paths that would hit the local API) is shown as text.

const allowed = new Set(['http:', 'https:', 'mailto:']);

/** The normalised URL when `href` is an absolute http(s) or mailto URL, else null. */
export function safeHref(href: string): string | null {
  let url: URL;
  try {
    url = new URL(href.trim());
  } catch {
    return null;
  }
  return allowed.has(url.protocol) ? url.href : null;
}
