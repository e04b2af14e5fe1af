// What every bench generator shares: the deterministic PRNG, the word-salad text, ids, the measured
// size profile and a buffered line writer, so each agent's sessions look alike in content and size.
import { closeSync, mkdirSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/** mulberry32: small, fast, deterministic. */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** An integer in [lo, hi). */
export function between(r, lo, hi) {
  return lo + Math.floor(r() * (hi - lo));
}

export function pick(r, list) {
  return list[Math.floor(r() * list.length)];
}

// Quantiles of the measured profile (3,142 Claude Code files, 1.24 GiB), interpolated in log space.
const sizeQuantiles = [
  [0, 3_000],
  [0.5, 105_000],
  [0.9, 654_000],
  [0.95, 1_500_000],
  [0.99, 5_400_000],
  [1, 24_000_000],
];

export function sampleSize(r) {
  const u = r();
  for (let i = 1; i < sizeQuantiles.length; i++) {
    const [q1, s1] = sizeQuantiles[i];
    const [q0, s0] = sizeQuantiles[i - 1];
    if (u <= q1) {
      const f = (u - q0) / (q1 - q0);
      return Math.round(Math.exp(Math.log(s0) + f * (Math.log(s1) - Math.log(s0))));
    }
  }
  return sizeQuantiles.at(-1)[1];
}

export const words = (
  'the a to of and in is it that for on with as this be are by function return const value file test error ' +
  'build index session parser record token cache stream line buffer offset query result config server client ' +
  'request response module import export type interface class method update delete create render component state ' +
  'migration schema column table database commit branch merge review deploy release version package install run'
).split(' ');
const rare = ['zanzibar', 'quixotic', 'flibbertigibbet', 'xylophonic', 'brouhaha'];
const accented = ['café', 'naïve', 'Straße', 'über', 'déjà', 'façade', '日本語', 'résumé', 'Ωmega'];

export function sentence(r, n) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const u = r();
    if (u < 0.002) out.push(`${rare[Math.floor(r() * rare.length)]}${Math.floor(r() * 50)}`);
    else if (u < 0.01) out.push(accented[Math.floor(r() * accented.length)]);
    else out.push(words[Math.floor(r() * words.length)]);
  }
  return out.join(' ');
}

export function codeBlock(r, bytes) {
  const lines = [];
  let size = 0;
  while (size < bytes) {
    const l = `${'  '.repeat(Math.floor(r() * 4))}${sentence(r, 4 + Math.floor(r() * 8))};`;
    lines.push(l);
    size += l.length + 1;
  }
  return lines.join('\n');
}

export function uuid(r) {
  const h = () =>
    Math.floor(r() * 0x10000)
      .toString(16)
      .padStart(4, '0');
  return `${h()}${h()}-${h()}-4${h().slice(1)}-a${h().slice(1)}-${h()}${h()}${h()}`;
}

export function hex(r, n) {
  let s = '';
  while (s.length < n)
    s += Math.floor(r() * 0x10000)
      .toString(16)
      .padStart(4, '0');
  return s.slice(0, n);
}

/** Size of a tool's output: mostly small, a long tail of big dumps. */
export function outputSize(r) {
  const u = r();
  if (u < 0.6) return 100 + Math.floor(r() * 1500);
  if (u < 0.9) return 2000 + Math.floor(r() * 8000);
  if (u < 0.98) return 10_000 + Math.floor(r() * 40_000);
  return 50_000 + Math.floor(r() * 200_000);
}

export function isoAt(base, seconds) {
  return new Date(base + seconds * 1000).toISOString();
}

/** `HH:MM:SS.mmm` of an epoch ms, in UTC. */
export function timeOfDay(ms) {
  return new Date(ms).toISOString().slice(11, 23);
}

/** A project folder a session ran in. */
export function projectCwd(i) {
  return `/home/bench/code/project-${i % 40}`;
}

/** Buffered line writer: one write per MiB. */
export class LineFile {
  constructor(path) {
    mkdirSync(dirname(path), { recursive: true });
    this.fd = openSync(path, 'w');
    this.parts = [];
    this.pending = 0;
    this.size = 0;
  }
  line(obj) {
    this.raw(`${JSON.stringify(obj)}\n`);
  }
  raw(s) {
    this.parts.push(s);
    this.pending += s.length;
    this.size += Buffer.byteLength(s);
    if (this.pending > 1 << 20) this.flush();
  }
  flush() {
    if (this.parts.length > 0) writeSync(this.fd, this.parts.join(''));
    this.parts = [];
    this.pending = 0;
  }
  close() {
    this.flush();
    closeSync(this.fd);
  }
}

/** Writes a whole file (creating its folder) and returns its size in bytes. */
export function writeWhole(path, text) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return Buffer.byteLength(text);
}

/**
 * Per-agent counters every generator fills: sessions listed, files written, bytes, the ids `scan`
 * must list, and the tokens the logs state (main agents and subagents together), as the record
 * counts them.
 */
export function newStats() {
  return { sessions: 0, files: 0, bytes: 0, ids: [], tokens: { input: 0, output: 0, cacheRead: 0, cacheCreate: 0 } };
}

/**
 * Adds one reply's usage to the stats in the record's convention (src/record/types.ts), which the
 * bench compares with the scan: `input` without the cache reads and writes, whatever the vendor
 * folds into its own prompt figure.
 */
export function countTokens(stats, input, output, cacheRead, cacheCreate) {
  stats.tokens.input += input;
  stats.tokens.output += output;
  stats.tokens.cacheRead += cacheRead;
  stats.tokens.cacheCreate += cacheCreate;
}

/**
 * Writes sessions until `target` bytes: sizes from the measured profile, capped at `cap` (each
 * agent's own read bounds and habits), with `write(size, index)` returning the bytes it wrote.
 */
export function fillTo(stats, target, r, cap, write) {
  let i = 0;
  while (stats.bytes < target) {
    const size = Math.max(3000, Math.min(sampleSize(r), cap, target - stats.bytes));
    write(size, i++);
  }
}
