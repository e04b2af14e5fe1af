// A per-segment bloom filter of the folded text's 2- and 3-grams, stored beside the generation file,
// so a query for a rare term opens only the segments that may hold it. It may say "maybe" falsely,
// never "no" falsely: every n-gram of every record goes in, and a match contains its needle's n-grams.

const magic = 0x474e4741; // "AGNG" little-endian
const formatVersion = 1;
const headerBytes = 12;
const minBits = 1 << 12;
const maxBits = 1 << 20;
/** Bit positions set per n-gram. */
const probes = 2;

export class NgramFilter {
  private constructor(
    readonly bits: Uint8Array,
    private readonly mask: number,
  ) {}

  /** Sized for `units` UTF-16 units of folded text (a power of two between 4 Kib and 1 Mib). */
  static sized(units: number): NgramFilter {
    let m = minBits;
    while (m < maxBits && m < units * 6) m *= 2;
    return new NgramFilter(new Uint8Array(m >>> 3), m - 1);
  }

  /** Builds the filter of a segment's folded texts. */
  static build(texts: readonly string[]): NgramFilter {
    let units = 0;
    for (const t of texts) units += t.length;
    const f = NgramFilter.sized(units);
    for (const t of texts) f.addText(t);
    return f;
  }

  addText(t: string): void {
    const n = t.length;
    if (n < 2) return;
    let a = t.charCodeAt(0);
    let b = t.charCodeAt(1);
    this.set(bigramHash(a, b));
    for (let i = 2; i < n; i++) {
      const c = t.charCodeAt(i);
      this.set(bigramHash(b, c));
      this.set(trigramHash(a, b, c));
      a = b;
      b = c;
    }
  }

  /** False only when `needle` (folded) cannot occur in any text the filter was built from. */
  mayContain(needle: string): boolean {
    const n = needle.length;
    if (n < 2) return true;
    if (n === 2) return this.has(bigramHash(needle.charCodeAt(0), needle.charCodeAt(1)));
    for (let i = 2; i < n; i++) {
      if (!this.has(trigramHash(needle.charCodeAt(i - 2), needle.charCodeAt(i - 1), needle.charCodeAt(i)))) return false;
    }
    return true;
  }

  private set(h: number): void {
    const h2 = mix(h ^ 0x5bd1e995) | 1;
    for (let k = 0; k < probes; k++) {
      const bit = (h + Math.imul(k, h2)) & this.mask;
      this.bits[bit >>> 3] = (this.bits[bit >>> 3] as number) | (1 << (bit & 7));
    }
  }

  private has(h: number): boolean {
    const h2 = mix(h ^ 0x5bd1e995) | 1;
    for (let k = 0; k < probes; k++) {
      const bit = (h + Math.imul(k, h2)) & this.mask;
      if (((this.bits[bit >>> 3] as number) & (1 << (bit & 7))) === 0) return false;
    }
    return true;
  }

  /** The file form: a 12-byte header (magic, version, bit count) and the bits. */
  serialise(): Buffer {
    const out = Buffer.alloc(headerBytes + this.bits.length);
    out.writeUInt32LE(magic, 0);
    out.writeUInt32LE(formatVersion, 4);
    out.writeUInt32LE(this.bits.length * 8, 8);
    out.set(this.bits, headerBytes);
    return out;
  }

  /** Reads the file form; null for anything malformed (the caller then scans the segment). */
  static parse(buf: Uint8Array): NgramFilter | null {
    if (buf.length < headerBytes) return null;
    const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    if (view.getUint32(0, true) !== magic || view.getUint32(4, true) !== formatVersion) return null;
    const m = view.getUint32(8, true);
    if (m < minBits || m > maxBits || (m & (m - 1)) !== 0 || buf.length !== headerBytes + m / 8) return null;
    return new NgramFilter(buf.slice(headerBytes), m - 1);
  }
}

function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

function bigramHash(a: number, b: number): number {
  return mix(Math.imul(a, 0x9e3779b1) ^ Math.imul(b + 0x3c6ef372, 0x85ebca77));
}

function trigramHash(a: number, b: number, c: number): number {
  return mix(Math.imul(a, 0x9e3779b1) ^ Math.imul(b, 0x85ebca77) ^ Math.imul(c + 0x27d4eb2f, 0xc2b2ae3d));
}
