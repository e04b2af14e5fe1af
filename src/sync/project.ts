// The project a session is filed under: its repository's basename cut to the hub's rule (seed 003
// "Projects"): ASCII letters, digits, `.`, `_`, `-`, starting with a letter or digit, ≤ 64 bytes.

export const maxProjectBytes = 64;

/** Null when the session recorded no repository, or nothing of its name survives the rule. */
export function projectName(repo: string): string | null {
  const trimmed = repo.replace(/[/\\]+$/, '');
  if (trimmed === '' || trimmed === '~') return null;
  const base = trimmed.slice(Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\')) + 1);
  // A redacted name is not a name: the hub would drop it too.
  if (base.includes('[REDACTED:')) return null;
  const ascii = base.replace(/[^A-Za-z0-9._-]/g, '-').replace(/^[^A-Za-z0-9]+/, '');
  const cut = ascii.slice(0, maxProjectBytes);
  return cut === '' ? null : cut;
}
