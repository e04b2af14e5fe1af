// Page tokens: versioned opaque strings pinned to the transcript they were minted against (root,
// relPath, dev+ino, a hash of the bytes before the offset) and to a line start, so paging never reads
// a stale offset against another file.
import { nodeCrypto } from '../fs/crypto.js';
import type { FileHandle } from 'node:fs/promises';
import { isObject } from '../json/narrow.js';
import { agentIds, type AgentId } from '../record/types.js';
import { custodyErrors } from './errors.js';
import { readFull } from './safe-fs.js';

const prefix = 'al1.';

export interface PageToken {
  v: 1;
  a: AgentId;
  s: string;
  /** Which root the transcript was read from, and that root's path. */
  r: 'vendor' | 'kept';
  root: string;
  p: string;
  dev: string;
  ino: string;
  /** sha256 (cut) of the first and the last 4 KiB before the offset. */
  h: string;
  o: number;
}

// Checked by hand, not with a zod schema: this runs on every `tail`, and zod's chunk costs more to
// load than the whole read. As strict as the schema was: every field, of its exact type.
function asToken(raw: unknown): PageToken | null {
  if (!isObject(raw)) return null;
  const { v, a, s, r, root, p, dev, ino, h, o } = raw;
  const agent = agentIds.find((id) => id === a);
  if (v !== 1 || agent === undefined || (r !== 'vendor' && r !== 'kept')) return null;
  if (typeof s !== 'string' || typeof root !== 'string' || typeof p !== 'string') return null;
  if (typeof dev !== 'string' || typeof ino !== 'string' || typeof h !== 'string') return null;
  if (typeof o !== 'number' || !Number.isSafeInteger(o) || o < 0) return null;
  return { v, a: agent, s, r, root, p, dev, ino, h, o };
}

export interface FileIdentity {
  dev: string;
  ino: string;
}

const sampleBytes = 4096;

export async function identityOf(handle: FileHandle): Promise<FileIdentity & { size: number }> {
  const st = await handle.stat({ bigint: true });
  return { dev: st.dev.toString(), ino: st.ino.toString(), size: Number(st.size) };
}

/** The hash of the bytes a token's offset rests on: the file's first 4 KiB and the 4 KiB before it. */
export async function offsetHash(handle: FileHandle, offset: number): Promise<string> {
  const hash = nodeCrypto().createHash('sha256');
  const head = Buffer.allocUnsafe(Math.min(sampleBytes, offset));
  hash.update(head.subarray(0, await readFull(handle, head, head.length, 0)));
  const tailStart = Math.max(0, offset - sampleBytes);
  const tail = Buffer.allocUnsafe(offset - tailStart);
  hash.update(tail.subarray(0, await readFull(handle, tail, tail.length, tailStart)));
  return hash.digest('base64url').slice(0, 22);
}

export function encodeToken(t: PageToken): string {
  return prefix + Buffer.from(JSON.stringify(t)).toString('base64url');
}

/** The token's fields, or InvalidPageToken for anything not minted by this version. */
export function decodeToken(token: string): PageToken {
  if (!token.startsWith(prefix)) throw custodyErrors.invalidPageToken('it is not an agentlog page token of this version');
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(token.slice(prefix.length), 'base64url').toString('utf8'));
  } catch {
    throw custodyErrors.invalidPageToken('it is damaged');
  }
  const parsed = asToken(raw);
  if (parsed === null) throw custodyErrors.invalidPageToken('it is damaged');
  return parsed;
}

export interface TokenSource {
  agent: AgentId;
  sessionId: string;
  root: 'vendor' | 'kept';
  rootPath: string;
  relPath: string;
}

export async function mintToken(src: TokenSource, handle: FileHandle, id: FileIdentity, offset: number): Promise<string> {
  return encodeToken({
    v: 1,
    a: src.agent,
    s: src.sessionId,
    r: src.root,
    root: src.rootPath,
    p: src.relPath,
    dev: id.dev,
    ino: id.ino,
    h: await offsetHash(handle, offset),
    o: offset,
  });
}

/**
 * True when the open file is the one the token was minted against and its offset still sits at a
 * line start within it (growth since is fine: the transcript is append-only).
 */
export async function tokenHolds(t: PageToken, handle: FileHandle): Promise<boolean> {
  const id = await identityOf(handle);
  if (id.dev !== t.dev || id.ino !== t.ino || t.o > id.size) return false;
  if (t.o > 0) {
    const b = Buffer.alloc(1);
    if ((await readFull(handle, b, 1, t.o - 1)) !== 1 || b[0] !== 10) return false;
  }
  return (await offsetHash(handle, t.o)) === t.h;
}
