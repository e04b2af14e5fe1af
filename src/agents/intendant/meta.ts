// `session_meta.json`: identity, project, name, task and status of one session (research §1.4).
// A small pretty-printed document, replaced atomically by the writer, read whole and bounded here;
// its fields are read as the session-log library reads them (sessionlog/meta-view.ts).
import { parseObjectLine } from '../../json/narrow.js';
import { type MetaView, metaView } from '../../sessionlog/meta-view.js';
import { files } from '../../sessionlog/paths.js';
import { SessionDir, type ReadFailure } from './session-dir.js';

export const metaFile = files.meta;
/** Real metas are a few hundred bytes; anything this big is not one. */
export const metaMaxBytes = 1 << 20;
export type SessionMeta = MetaView;

export type MetaRead = { meta: SessionMeta; problem?: { failure: ReadFailure | 'corrupt'; reason: string } };

/** Reads the meta of a session folder; a missing file is an empty meta, a corrupt one a problem. */
export async function readMeta(files: SessionDir): Promise<MetaRead> {
  const read = files.readWhole(metaFile, metaMaxBytes);
  if (!read.ok) return read.failure === 'missing' ? { meta: {} } : { meta: {}, problem: read };
  const doc = parseObjectLine(read.text);
  if (doc === undefined) {
    let reason = `${metaFile} is not a JSON object`;
    try {
      JSON.parse(read.text);
    } catch (error) {
      reason = `${metaFile} is not valid JSON (${(error as Error).message})`;
    }
    return { meta: {}, problem: { failure: 'corrupt', reason } };
  }
  return { meta: metaView(doc) };
}

/**
 * The name a person gave an Intendant session (`session_meta.json` `name`, normalised), or null.
 * Exported for the scan, which shows names; never throws.
 */
export async function readIntendantName(sessionDir: string): Promise<string | null> {
  try {
    const { meta } = await readMeta(new SessionDir(sessionDir));
    return meta.name ?? null;
  } catch {
    return null;
  }
}
