// Reads one Qwen Code chat file into its records in file order. Bad lines are counted; a torn final
// line (Qwen Code still appending) is neither a record nor bad.
import { statSync } from 'node:fs';
import { forEachJsonObject } from '../../fs/read-jsonl.js';
import { chatRecordOf, type QwenRecord } from './chat-record.js';

/** One record above this is skipped and counted (a pasted image, a huge tool result). */
export const maxRecordBytes = 32 * 1024 * 1024;

export interface ChatFile {
  records: QwenRecord[];
  badLines: number;
}

/** A read buffer no bigger than the file (most chats are far smaller than the reader's default). */
function chunkFor(path: string): number {
  return Math.min(2 << 20, Math.max(64 * 1024, statSync(path).size + 1));
}

/** Throws only for I/O (a missing or unreadable file). */
export async function readChat(path: string): Promise<ChatFile> {
  const records: QwenRecord[] = [];
  const r = await forEachJsonObject(
    path,
    (o, info) => {
      const record = chatRecordOf(o, info.line);
      if (record !== undefined) records.push(record);
    },
    { maxLineBytes: maxRecordBytes, chunkBytes: chunkFor(path) },
  );
  return { records, badLines: r.badLines };
}
