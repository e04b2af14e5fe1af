// The checksum a query verifies on every generation file it loads: CRC-32, several times cheaper
// than the SHA-256 that names the file (which the sweep still verifies whenever it reads one back).
// It catches what happens to a file at rest (a torn write, a truncation, a flipped bit); the name
// is the content's identity. zlib's native CRC-32 is in Node from 20.15; a table stands in before.
import * as zlib from 'node:zlib';

let table: Uint32Array | undefined;

function crc32Table(): Uint32Array {
  if (table !== undefined) return table;
  table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
}

function crc32Js(data: Uint8Array): number {
  const t = crc32Table();
  let c = 0xffffffff;
  for (let i = 0; i < data.length; i++) c = (t[(c ^ (data[i] as number)) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

const native: ((data: Uint8Array) => number) | undefined = typeof zlib.crc32 === 'function' ? (d) => zlib.crc32(d) : undefined;

/** The CRC-32 (IEEE, as zlib and PNG) of `data`, unsigned. Example: crc32(Buffer.from('123456789')) === 0xcbf43926. */
export function crc32(data: Uint8Array): number {
  return native !== undefined ? native(data) : crc32Js(data);
}

/** The table form, exported so a test can check both agree. */
export const crc32Portable = crc32Js;
