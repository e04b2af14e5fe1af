// Reads one session folder within the bounds: state.json, then each agent's wire (main first,
// then sorted), stopping an agent at the first bound it breaks. What breaks a bound is reported
// and left out whole; what fits is folded into a WireLog per agent.
import { realpathSync } from 'node:fs';
import { sep } from 'node:path';
import { errorMessage, isNotFound } from '../../fs/errors.js';
import { linkOnPath } from '../../fs/stat.js';
import type { FileProblem, SessionFile } from '../types.js';
import type { KimiBounds } from './bounds.js';
import { agentDirsSync } from './discover.js';
import { statFileSync } from './file-stat.js';
import { mainAgentId, orderAgentIds, statePath, wirePath } from './layout.js';
import { readStateFileSync, type KimiState } from './state-file.js';
import type { WireLog } from './wire-entry.js';
import { outputHeadChars } from './summary-cut.js';
import { readWire } from './wire-read.js';

export interface KimiSessionLogs {
  state: KimiState | null;
  /** The agents whose wires were read, main first. */
  logs: Map<string, WireLog>;
  problems: FileProblem[];
  badLines: { path: string; count: number }[];
  /** Wires whose final line is torn (a writer may still be appending). */
  tornTails: string[];
}

/**
 * A wire reached through a link that leaves the session folder is not the session's. With no link
 * below the folder the wire lies in it: three lstats instead of resolving both whole paths (the two
 * realpaths were ~4% of the main thread in a cold scan of the bench home's Kimi sessions).
 */
function staysInside(path: string, sessionDir: string): boolean {
  if (linkOnPath(sessionDir, path) === null) return true;
  try {
    return realpathSync.native(path).startsWith(realpathSync.native(sessionDir) + sep);
  } catch {
    return false;
  }
}

/**
 * `summary`: tool outputs are read only as far as a summary needs (see summary-cut). `known`: the
 * files as discovery stat'ed them, not stat'ed again (a file it did not find is).
 */
export async function readKimiSession(
  sessionDir: string,
  bounds: KimiBounds,
  summary = false,
  known: readonly SessionFile[] = [],
): Promise<KimiSessionLogs> {
  const problems: FileProblem[] = [];
  const badLines: { path: string; count: number }[] = [];
  const tornTails: string[] = [];
  const seen = new Map(known.map((f) => [f.path, f]));
  const stateFile = statePath(sessionDir);
  const { state, problem } = readStateFileSync(stateFile, bounds.stateBytes);
  if (problem !== null) problems.push(problem);

  let ids = orderAgentIds([...(state?.agents.keys() ?? []), ...agentDirsSync(sessionDir)]);
  if (ids.length > bounds.sessionAgents) {
    problems.push({
      path: sessionDir,
      kind: 'oversized',
      reason: `${ids.length} agents, over the ${bounds.sessionAgents}-agent bound; only the first ${bounds.sessionAgents} read`,
    });
    ids = ids.slice(0, bounds.sessionAgents);
  }

  const logs = new Map<string, WireLog>();
  let bytes = 0;
  let records = 0;
  for (const id of ids) {
    const path = wirePath(sessionDir, id);
    let file: SessionFile | null | undefined = seen.get(path);
    try {
      file ??= statFileSync(path);
    } catch (error) {
      if (!isNotFound(error)) problems.push({ path, kind: 'unreadable', reason: errorMessage(error) });
      continue;
    }
    if (file === null) continue;
    if (!staysInside(path, sessionDir)) {
      problems.push({ path, kind: 'unreadable', reason: 'the wire resolves outside its session folder; not read' });
      continue;
    }
    if (file.size > bounds.wireBytes) {
      problems.push({ path, kind: 'oversized', reason: `wire is ${file.size} bytes, over the ${bounds.wireBytes}-byte bound; not read` });
      continue;
    }
    if (bytes + file.size > bounds.sessionBytes) {
      problems.push({ path, kind: 'oversized', reason: `the session's wires pass the ${bounds.sessionBytes}-byte bound; not read` });
      continue;
    }
    let read;
    try {
      read = await readWire(path, id, {
        maxLineBytes: bounds.wireRecordBytes,
        maxRecords: bounds.sessionRecords - records,
        // An output's head only links a launched agent: a session of one agent needs none of it.
        outputHead: summary ? (ids.length > 1 ? outputHeadChars : 0) : undefined,
      });
    } catch (error) {
      problems.push({ path, kind: 'unreadable', reason: errorMessage(error) });
      continue;
    }
    if (!read.ok) {
      problems.push({ path, kind: 'oversized', reason: read.reason });
      continue;
    }
    bytes += file.size;
    records += read.log.records;
    if (read.badLines > 0) badLines.push({ path, count: read.badLines });
    if (read.tornTail) tornTails.push(path);
    logs.set(id, read.log);
  }
  if (!logs.has(mainAgentId)) logs.clear();
  return { state, logs, problems, badLines, tornTails };
}
