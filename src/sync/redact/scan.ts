// Finds every secret in one text: runs each detector, drops what is already a replacement token,
// and resolves overlaps so each character belongs to at most one finding (lowest rank, then the
// longest, wins each slice; livingbrain-redact's rule), leaving no stray bytes between findings.
import { type Finding, type RedactionClass, tokenPattern } from './classes.js';
import { patternDetectors, privateKeyBegin, privateKeyEnd } from './detectors.js';
import { findHighEntropy } from './entropy.js';

interface Hit extends Finding {
  rank: number;
}

/** Shorter than this, a string holds nothing any detector matches (the shortest is an address, 7). */
const minSecretLength = 7;

/**
 * True when `text[start, end)` is only replacement tokens, blanks and quotes (as a serialised body
 * escapes them): redacting it again would change nothing.
 */
function onlyTokens(text: string, start: number, end: number): boolean {
  const span = text.slice(start, end);
  if (!span.includes('[REDACTED:')) return false;
  return span.replace(tokenPattern, '').replace(/[\s"'\\]/g, '') === '';
}

function groupSpan(m: RegExpExecArray, group: number | readonly number[]): [number, number] | null {
  for (const g of typeof group === 'number' ? [group] : group) {
    const span = m.indices?.[g];
    if (span !== undefined) return span;
  }
  return null;
}

function privateKeys(text: string, into: Hit[]): void {
  if (!text.includes('-----BEGIN')) return;
  const begin = new RegExp(privateKeyBegin.source, 'g');
  const end = new RegExp(privateKeyEnd.source, 'g');
  for (let m = begin.exec(text); m !== null; m = begin.exec(text)) {
    end.lastIndex = m.index + m[0].length;
    const footer = end.exec(text);
    const stop = footer === null ? text.length : footer.index + footer[0].length;
    into.push({ cls: 'private_key', rank: 1, start: m.index, end: stop });
    begin.lastIndex = stop;
  }
}

function rawHits(text: string): Hit[] {
  const hits: Hit[] = [];
  for (const d of patternDetectors) {
    if (d.needle !== undefined) {
      const present = d.needleFold === true ? text.toLowerCase().includes(d.needle) : text.includes(d.needle);
      if (!present) continue;
    }
    if (d.prefilter !== undefined && !d.prefilter.test(text)) continue;
    d.re.lastIndex = 0;
    for (let m = d.re.exec(text); m !== null; m = d.re.exec(text)) {
      // A zero-length match cannot happen with these patterns; guard the loop all the same.
      if (m[0].length === 0) {
        d.re.lastIndex++;
        continue;
      }
      if (d.accept !== undefined && !d.accept(m, text)) continue;
      const span = d.group === undefined ? ([m.index, m.index + m[0].length] as [number, number]) : groupSpan(m, d.group);
      if (span === null || span[1] <= span[0]) continue;
      hits.push({ cls: d.cls, rank: d.rank, start: span[0], end: span[1] });
    }
  }
  privateKeys(text, hits);
  for (const h of findHighEntropy(text)) hits.push({ ...h, rank: 4 });
  return hits.filter((h) => !onlyTokens(text, h.start, h.end));
}

function better(a: Hit, b: Hit): boolean {
  if (a.rank !== b.rank) return a.rank < b.rank;
  return a.end - a.start > b.end - b.start;
}

/** A binary heap of hits, best (lowest rank, then longest) on top. */
class HitHeap {
  private readonly items: Hit[] = [];
  get size(): number {
    return this.items.length;
  }
  top(): Hit | undefined {
    return this.items[0];
  }
  push(h: Hit): void {
    const a = this.items;
    a.push(h);
    let i = a.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!better(a[i]!, a[p]!)) break;
      [a[i], a[p]] = [a[p]!, a[i]!];
      i = p;
    }
  }
  pop(): void {
    const a = this.items;
    const last = a.pop();
    if (last === undefined || a.length === 0) return;
    a[0] = last;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < a.length && better(a[l]!, a[m]!)) m = l;
      if (r < a.length && better(a[r]!, a[m]!)) m = r;
      if (m === i) return;
      [a[i], a[m]] = [a[m]!, a[i]!];
      i = m;
    }
  }
}

/**
 * Splits one cluster of overlapping hits (sorted by start) at every edge and gives each slice to its
 * best covering hit: a sweep with a heap, so thousands of hits nested in one long run stay cheap.
 */
function resolveCluster(cluster: Hit[], out: Finding[]): void {
  const edges = [...new Set(cluster.flatMap((h) => [h.start, h.end]))].sort((a, b) => a - b);
  const heap = new HitHeap();
  let next = 0;
  for (let e = 0; e + 1 < edges.length; e++) {
    const a = edges[e]!;
    const b = edges[e + 1]!;
    while (next < cluster.length && cluster[next]!.start <= a) heap.push(cluster[next++]!);
    // Hits that ended are dropped lazily, when they reach the top.
    while (heap.size > 0 && heap.top()!.end <= a) heap.pop();
    const best = heap.top();
    if (best === undefined) continue;
    const last = out[out.length - 1];
    if (last !== undefined && last.end === a && last.cls === best.cls) last.end = b;
    else out.push({ cls: best.cls, start: a, end: b });
  }
}

/** Every finding in `text`, in order, none overlapping. */
export function scanText(text: string): Finding[] {
  if (text.length < minSecretLength) return [];
  const hits = rawHits(text);
  if (hits.length === 0) return [];
  hits.sort((a, b) => a.start - b.start || b.end - a.end);
  const out: Finding[] = [];
  let i = 0;
  while (i < hits.length) {
    const first = hits[i]!;
    let end = first.end;
    let j = i + 1;
    while (j < hits.length && hits[j]!.start < end) end = Math.max(end, hits[j++]!.end);
    if (j === i + 1) out.push({ cls: first.cls, start: first.start, end: first.end });
    else resolveCluster(hits.slice(i, j), out);
    i = j;
  }
  return out;
}

/** Replaces each finding with its token. */
export function applyFindings(text: string, findings: readonly Finding[]): string {
  let out = '';
  let at = 0;
  for (const f of findings) {
    out += `${text.slice(at, f.start)}[REDACTED:${f.cls}]`;
    at = f.end;
  }
  return out + text.slice(at);
}

export type { RedactionClass };
