// Home elision: the real home prefix becomes `~` in the repo and every string a turn carries
// (seed 003 "Redaction happens on both sides"), including Claude Code's dash-encoded project form.

export type Elider = (text: string) => string;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Builds an elider for one home directory; a null or root home elides nothing. */
export function makeHomeElider(home: string | null): Elider {
  if (home === null) return (t) => t;
  const trimmed = home.replace(/\/+$/, '');
  if (trimmed === '' || !trimmed.startsWith('/')) return (t) => t;
  const dashed = trimmed.replace(/[^A-Za-z0-9]/g, '-');
  // The plain form must end at a path boundary so /home/al does not eat /home/alice.
  const plain = new RegExp(`${escapeRegExp(trimmed)}(?=$|[/\\\\\\s"'\`:;,)\\]}>])`, 'g');
  const dash = new RegExp(`${escapeRegExp(dashed)}(?=$|-)`, 'g');
  return (text) => {
    if (!text.includes(trimmed) && !text.includes(dashed)) return text;
    return text.replace(plain, '~').replace(dash, '~');
  };
}
