// The baseline every reading figure is compared with: read each file in large chunks, split the
// lines and JSON.parse each one, on one core, with no other work.
import { closeSync, openSync, readSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Every regular file under `dir` (JSON and JSONL logs; the bench marker excluded). */
export function listFiles(dir, out = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) listFiles(p, out);
    else if (entry.isFile() && /\.jsonl?$/.test(entry.name) && entry.name !== 'generated.json') out.push(p);
  }
  return out;
}

/** Parses every line of every file; returns MiB/s and counts. */
export function baselineParse(files) {
  const buf = Buffer.allocUnsafe(4 << 20);
  let bytes = 0;
  let lines = 0;
  let bad = 0;
  const started = process.hrtime.bigint();
  for (const f of files) {
    const fd = openSync(f, 'r');
    let carry = '';
    let pos = 0;
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, pos);
      if (n === 0) break;
      pos += n;
      bytes += n;
      let start = 0;
      for (;;) {
        const nl = buf.indexOf(10, start);
        if (nl === -1 || nl >= n) {
          carry += buf.toString('utf8', start, n);
          break;
        }
        const line = carry + buf.toString('utf8', start, nl);
        carry = '';
        start = nl + 1;
        if (line.length === 0) continue;
        lines++;
        try {
          JSON.parse(line);
        } catch {
          bad++;
        }
      }
    }
    if (carry.length > 0) {
      try {
        JSON.parse(carry);
      } catch {
        bad++;
      }
    }
    closeSync(fd);
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { seconds, bytes, lines, bad, mibps: bytes / 1048576 / seconds };
}

export function fileBytes(files) {
  return files.reduce((n, f) => n + statSync(f).size, 0);
}
