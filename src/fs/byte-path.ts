// File names that are not UTF-8, carried as strings: a name listed as bytes is decoded with each
// byte that is not part of a valid UTF-8 sequence kept as a lone surrogate U+DC80–U+DCFF (Python's
// "surrogateescape"), and turned back into those exact bytes where a path is handed to the OS.
//
// Why it cannot be confused with a real name: UTF-8 cannot encode a surrogate (RFC 3629 §3), so a
// name that is valid UTF-8 never decodes to a lone surrogate; the bytes that would spell one
// (ED B2 80 for U+DC80) are invalid UTF-8 and are themselves escaped byte by byte. A string path
// without a lone U+DC80–U+DCFF is handed to the OS as is, exactly as before.

const escapeBase = 0xdc00;
const mayHoldEscape = /[\udc80-\udcff]/;

/** True when `path` holds an escaped byte, so only `osPath(path)` names it to the OS. */
export function holdsEscape(path: string): boolean {
  return mayHoldEscape.test(path);
}

/** Length of the valid UTF-8 sequence starting at `i` (RFC 3629 table), or 0 when it is not one. */
function sequenceLength(b: Uint8Array, i: number): number {
  const c = b[i] as number;
  if (c < 0x80) return 1;
  const at = (k: number): number => (i + k < b.length ? (b[i + k] as number) : -1);
  const cont = (k: number): boolean => (at(k) & 0xc0) === 0x80 && at(k) >= 0;
  if (c >= 0xc2 && c <= 0xdf) return cont(1) ? 2 : 0;
  if (c >= 0xe0 && c <= 0xef) {
    const b1 = at(1);
    // E0 needs A0–BF (no overlong form); ED needs 80–9F (no surrogate).
    const lo = c === 0xe0 ? 0xa0 : 0x80;
    const hi = c === 0xed ? 0x9f : 0xbf;
    return b1 >= lo && b1 <= hi && cont(2) ? 3 : 0;
  }
  if (c >= 0xf0 && c <= 0xf4) {
    const b1 = at(1);
    const lo = c === 0xf0 ? 0x90 : 0x80;
    const hi = c === 0xf4 ? 0x8f : 0xbf;
    return b1 >= lo && b1 <= hi && cont(2) && cont(3) ? 4 : 0;
  }
  return 0;
}

// ignoreBOM: a name that starts with U+FEFF keeps it.
const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * A name listed as bytes, as a string: the UTF-8 text when it is valid UTF-8 (the common case),
 * else with every stray byte b as U+DC00+b. Example: nameFromBytes(Buffer.from([0x61, 0xff])) === 'a\udcff'.
 */
export function nameFromBytes(bytes: Uint8Array): string {
  try {
    return strict.decode(bytes);
  } catch {
    // Not UTF-8: decoded below, sequence by sequence.
  }
  let out = '';
  let run = 0;
  let i = 0;
  const flush = (end: number): void => {
    if (end > run) out += Buffer.from(bytes.buffer, bytes.byteOffset + run, end - run).toString('utf8');
  };
  while (i < bytes.length) {
    const n = sequenceLength(bytes, i);
    if (n > 0) {
      i += n;
      continue;
    }
    flush(i);
    out += String.fromCharCode(escapeBase + (bytes[i] as number));
    i++;
    run = i;
  }
  flush(i);
  return out;
}

/** The bytes a string path stands for (see the module comment); its UTF-8 when it holds no escape. */
export function bytesOfPath(path: string): Buffer {
  const parts: Buffer[] = [];
  let run = 0;
  for (let i = 0; i < path.length; i++) {
    const c = path.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = path.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++; // a surrogate pair: a real character, kept in the run
      continue;
    }
    if (c < 0xdc80 || c > 0xdcff) continue;
    parts.push(Buffer.from(path.slice(run, i), 'utf8'), Buffer.of(c - escapeBase));
    run = i + 1;
  }
  parts.push(Buffer.from(path.slice(run), 'utf8'));
  return Buffer.concat(parts);
}

/**
 * The path to hand to a `node:fs` call: the string itself, or its bytes when it holds a name that
 * was not UTF-8. Every fs function that opens, stats or lists a session's files takes its path
 * through here. Example: `openSync(osPath(path), flags)`.
 */
export function osPath(path: string): string | Buffer {
  return mayHoldEscape.test(path) ? bytesOfPath(path) : path;
}

/** A path the OS gave back as bytes (`readlink`, a listing), as a string `osPath` turns back into those bytes. */
export function pathFromOs(bytes: Buffer | string): string {
  return typeof bytes === 'string' ? bytes : nameFromBytes(bytes);
}
