// OpenCode's messages for the search index: the shown text parts of user and assistant messages of
// a session and the subagent sessions it launched (from the JSON tree, the SQLite database or an
// agentlog export), by message id. A change to any of its files re-reads the session.
// Never indexed: reasoning, tool parts, synthetic or ignored parts, compaction summaries.
import { bool, num, obj, str } from '../../json/narrow.js';
import { cappedRecord, wholeExtract, wholeFiles } from '../message-files.js';
import type { MessageRecord } from '../../record/message-index.js';
import type { DiscoveredSession, MessageExtractor } from '../types.js';
import { readExportRows } from './export.js';
import { loadJsonTree } from './json-tree.js';
import { parseDatabaseLocator } from './locator.js';
import { epochMs, partType, type OcTree } from './model.js';
import { treeFromRows } from './rows.js';
import { databaseProblem, defaultBusyTimeoutMs, loadDatabaseRows } from './sqlite.js';

/** Bump when what this file extracts changes: the index then re-reads every OpenCode session. */
export const opencodeMessagesVersion = 1;

async function loadTree(session: DiscoveredSession): Promise<{ tree: OcTree | null; problems: { path: string; reason: string }[] }> {
  const locator = parseDatabaseLocator(session.path);
  if (locator !== undefined) {
    try {
      return {
        tree: treeFromRows(await loadDatabaseRows(locator.database, locator.sessionId, defaultBusyTimeoutMs), locator.sessionId).tree,
        problems: [],
      };
    } catch (error) {
      const p = databaseProblem(locator.database, error);
      return { tree: null, problems: [{ path: p.path, reason: p.reason }] };
    }
  }
  if (/\.jsonl$/i.test(session.path))
    return { tree: treeFromRows((await readExportRows(session.path)).rows, session.sessionId).tree, problems: [] };
  const loaded = await loadJsonTree(session.path, session.files);
  return { tree: loaded.tree, problems: loaded.problems.map((p) => ({ path: p.path, reason: p.reason })) };
}

async function extract(session: DiscoveredSession) {
  const files = await wholeFiles(session.files.map((f) => f.path));
  const { tree, problems } = await loadTree(session);
  const records: MessageRecord[] = [];
  for (const [id, data] of tree?.sessions ?? []) {
    const sub = id !== tree?.rootId;
    for (const m of data.messages) {
      const role = str(m.info, 'role');
      if (role !== 'user' && role !== 'assistant') continue;
      const body = m.parts
        .filter((p) => partType(p) === 'text' && bool(p, 'synthetic') !== true && bool(p, 'ignored') !== true)
        .map((p) => str(p, 'text') ?? '')
        .join('\n')
        .trim();
      if (body === '') continue;
      const ts = epochMs(num(obj(m.info, 'time'), 'created')) ?? 0;
      const rec = cappedRecord({ role, ts_ms: ts, text: body, locator: { kind: 'external_record_id', record_id: m.id }, item_id: m.id });
      if (sub) {
        rec.subagent = true;
        rec.thread = id;
      }
      records.push(rec);
    }
  }
  // A database's size says nothing about what one session read from it: only its own files count.
  const bytesRead = files.filter((f) => !/\.db(-wal|-shm)?$/.test(f.path)).reduce((n, f) => n + f.offset, 0);
  return wholeExtract(files, records, [], { problems, bytesRead });
}

export const opencodeSearchMessages: MessageExtractor = { version: opencodeMessagesVersion, extract };
