// Home elision for what sync sends (seed 003): the real home prefix becomes `~`, as does Claude
// Code's dash-encoded form of it (every character but a letter or digit written `-`), and only at
// path boundaries: `/home/al` leaves `/home/alice` and `/mnt/home/al/x` alone.
import type { Elider } from '../record/home-elide.js';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Claude Code's project-folder encoding of a path (research/livingbrain.md §6.1). */
export function dashEncode(path: string): string {
  return path.replace(/[^A-Za-z0-9]/g, '-');
}

/**
 * An elider for the given home folders (the home as the environment names it, and its real path
 * when that differs). A root, relative or empty home elides nothing, so `/` never un-roots a path.
 * Example: makeSyncElider(['/home/alice'])('cd /home/alice/code') → 'cd ~/code'.
 */
export function makeSyncElider(homes: readonly string[]): Elider {
  const plain = [...new Set(homes.map((h) => h.replace(/\/+$/, '')).filter((h) => h.startsWith('/') && h.length > 1))].sort(
    (a, b) => b.length - a.length,
  );
  if (plain.length === 0) return (t) => t;
  const dashed = [...new Set(plain.map(dashEncode))].sort((a, b) => b.length - a.length);
  // Before: not a path character (a `/` is allowed: file:///home/alice). After: the end of the
  // path component. The dashed form is a folder name's prefix: it ends at a `-` or the name's end.
  const plainRe = new RegExp(`(?<![A-Za-z0-9._~-])(?:${plain.map(escapeRegExp).join('|')})(?![^/\\\\\\s"'\`:;,)\\]}>|])`, 'g');
  const dashRe = new RegExp(`(?<![A-Za-z0-9])(?:${dashed.map(escapeRegExp).join('|')})(?![A-Za-z0-9._])`, 'g');
  return (text) => {
    if (!plain.some((h) => text.includes(h)) && !dashed.some((d) => text.includes(d))) return text;
    return text.replace(plainRe, '~').replace(dashRe, '~');
  };
}
