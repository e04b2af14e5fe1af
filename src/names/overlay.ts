// The names overlay `<stateRoot>/session_names.json`: `{source: {session_id: name}}` for sessions
// whose own files agentlog never writes. Every write is a read-modify-write under an exclusive
// lock, replaced atomically, so concurrent processes never lose each other's names (§9 item 5).
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { withLock } from '../fs/lock.js';
import { writeFileAtomicSync as writeFileAtomic } from '../fs/atomic-write.js';
import { makePrivateDir } from '../sessionlog/private-fs.js';
// The rule alone, not the meta writer beside it: `scan` reads the overlay every run and need not load zod.
import { normaliseName, normaliseNameOrNull } from '../sessionlog/name-rule.js';
import { stripControls } from '../text/control-chars.js';
import { NamesError } from './errors.js';
import { normaliseSource } from './sources.js';

export const overlayFile = 'session_names.json';

/** source → session id → name, every key and name normalised. */
export type Overlay = Record<string, Record<string, string>>;

const isTable = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Where the value is not `{source: {id: name}}` (`codex.s`, or '' for the top), null when it is.
 * By hand: `scan` reads the overlay every run, and zod's load cost more than the rest of an unchanged scan's names.
 */
function overlayFault(value: unknown): string | null {
  if (!isTable(value)) return '';
  for (const source in value) {
    const names = value[source];
    if (!isTable(names)) return source;
    for (const id in names) if (typeof names[id] !== 'string') return `${source}.${id}`;
  }
  return null;
}

export function overlayPath(stateRoot: string): string {
  return join(resolve(stateRoot), overlayFile);
}

/** Sources and names normalised (on read as on write, control characters removed); blank names dropped. */
function normalise(raw: Overlay): Overlay {
  const out: Overlay = {};
  for (const [source, names] of Object.entries(raw)) {
    const key = normaliseSource(source);
    for (const [id, name] of Object.entries(names)) {
      const n = normaliseNameOrNull(stripControls(name).text);
      if (n === null || id.trim() === '') continue;
      (out[key] ??= {})[id.trim()] = n;
    }
  }
  return out;
}

function parseOverlay(text: string, path: string): Overlay {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new NamesError(
      'CorruptOverlay',
      `${path} is not valid JSON (${error instanceof Error ? error.message : String(error)}); repair or delete it (it only holds session names)`,
      { cause: error },
    );
  }
  const fault = overlayFault(value);
  if (fault !== null) {
    const what = fault === '' ? 'not an object' : fault.includes('.') ? 'not a string' : 'not an object';
    throw new NamesError(
      'CorruptOverlay',
      `${path}: ${fault || '(top level)'}: ${what}; the file must be {"source": {"session id": "name"}}`,
    );
  }
  return normalise(value as Overlay);
}

function isMissing(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'ENOENT';
}

/** The overlay; empty when there is none. A corrupt file is a CorruptOverlay error. */
export async function readOverlay(stateRoot: string): Promise<Overlay> {
  const path = overlayPath(stateRoot);
  try {
    return parseOverlay(await readFile(path, 'utf8'), path);
  } catch (error) {
    if (isMissing(error)) return {};
    throw error;
  }
}

function readOverlaySync(path: string): Overlay {
  try {
    return parseOverlay(readFileSync(path, 'utf8'), path);
  } catch (error) {
    if (isMissing(error)) return {};
    throw error;
  }
}

/** The name a session has in the overlay, or null. */
export function overlayName(overlay: Overlay, source: string, sessionId: string): string | null {
  return overlay[normaliseSource(source)]?.[sessionId] ?? null;
}

async function update(stateRoot: string, change: (overlay: Overlay) => void): Promise<Overlay> {
  makePrivateDir(resolve(stateRoot));
  const path = overlayPath(stateRoot);
  return withLock(`${path}.lock`, () => {
    // Re-read under the lock: whatever another process wrote a moment ago is kept.
    const overlay = readOverlaySync(path);
    change(overlay);
    writeFileAtomic(path, `${JSON.stringify(overlay, null, 2)}\n`);
    return overlay;
  });
}

/** Names a session in the overlay; returns the stored (normalised) name. */
export async function setOverlayName(stateRoot: string, source: string, sessionId: string, name: string): Promise<string> {
  const normalised = normaliseName(stripControls(name).text);
  const key = normaliseSource(source);
  const id = sessionId.trim();
  await update(stateRoot, (overlay) => {
    (overlay[key] ??= {})[id] = normalised;
  });
  return normalised;
}

/** Removes a session's overlay name; true when it had one. */
export async function clearOverlayName(stateRoot: string, source: string, sessionId: string): Promise<boolean> {
  let had = false;
  const key = normaliseSource(source);
  await update(stateRoot, (overlay) => {
    const names = overlay[key];
    if (names === undefined || !(sessionId in names)) return;
    had = true;
    delete names[sessionId];
    if (Object.keys(names).length === 0) delete overlay[key];
  });
  return had;
}
