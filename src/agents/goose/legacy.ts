// Goose's JSONL sessions from before the database (session/legacy.rs): `sessions/<id>.jsonl`, a
// metadata line (`working_dir`, `description`, `message_count`, the token counters), then one
// `Message` per line. Goose imports them into `sessions.db` and leaves the files behind.
import { basename } from 'node:path';
import { forEachJsonObject } from '../../fs/read-jsonl.js';
import { readFirstLineSync } from '../../fs/read-lines.js';
import { num, parseObjectLine, str, text, type JsonObject } from '../../json/narrow.js';
import { gooseMessage, type GooseSession } from './model.js';

/** The metadata line: Goose's `SessionMetadata` requires `description` and `message_count`. */
export function isMetadataLine(line: JsonObject | undefined): boolean {
  return str(line, 'description') !== undefined && num(line, 'message_count') !== undefined && line?.role === undefined;
}

/** The session id of a legacy file: its name without `.jsonl` (Goose's own rule). */
export const legacyId = (path: string): string => basename(path).replace(/\.jsonl$/i, '');

/** The metadata line of a file when it has one (claims and discovery read only this). */
export async function readLegacyHeader(path: string): Promise<JsonObject | undefined> {
  // Synchronous: discovery reads one header per legacy file, each an idle round trip otherwise.
  const first = parseObjectLine(readFirstLineSync(path, 1 << 20) ?? '');
  return isMetadataLine(first) ? first : undefined;
}

export async function readLegacySession(path: string): Promise<{ session: GooseSession; badLines: number }> {
  const id = legacyId(path);
  const session: GooseSession = { id, createdAt: null, counters: {}, messages: [] };
  let bad = 0;
  let index = 0;
  const r = await forEachJsonObject(path, (line, info) => {
    if (info.line === 1 && isMetadataLine(line)) {
      session.counters = line;
      const wd = text(line, 'working_dir');
      if (wd !== undefined) session.workingDir = wd;
      const name = text(line, 'description');
      if (name !== undefined) session.name = name;
      return;
    }
    const message = gooseMessage(text(line, 'id') ?? `msg_${id}_${index}`, line.role, line.created, line.content, line.metadata);
    index++;
    if (message === undefined) bad++;
    else session.messages.push(message);
  });
  return { session, badLines: bad + r.badLines + (r.tornTail ? 1 : 0) };
}
