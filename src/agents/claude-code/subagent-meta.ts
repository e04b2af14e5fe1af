// Reads subagents' `.meta.json` files (type, description, the tool use that launched them). A long
// session holds hundreds, each a few hundred bytes: they are read with plain system calls, one after
// another, because a trip through the thread pool costs more than the read (a cold scan of the bench
// home's Claude Code half spent ~150 ms of the main thread waiting on 517 of them).
import { readRegularFileSync } from '../../fs/read-open.js';
import { statFileSync } from '../../fs/stat.js';
import { errorMessage } from '../../fs/errors.js';
import { isObject, text } from '../../json/narrow.js';
import type { FileProblem } from '../types.js';
import type { SubagentMeta } from './subagents.js';

/** A `.meta.json` is a few fields; anything larger is not one. */
const maxMetaBytes = 1024 * 1024;

interface MetaRead {
  meta?: SubagentMeta;
  problem?: FileProblem;
  bad?: boolean;
}

function readMeta(path: string): MetaRead {
  try {
    const s = statFileSync(path);
    if (s === null) return { problem: { path, kind: 'unreadable', reason: 'file disappeared while it was read' } };
    if (s.size > maxMetaBytes) return { problem: { path, kind: 'oversized', reason: `subagent meta file over ${maxMetaBytes} bytes` } };
    let value: unknown;
    try {
      value = JSON.parse(readRegularFileSync(path));
    } catch (error) {
      if (error instanceof SyntaxError) return { bad: true };
      throw error;
    }
    if (!isObject(value)) return { bad: true };
    const meta: SubagentMeta = {};
    const agentType = text(value, 'agentType');
    const description = text(value, 'description');
    const toolUseId = text(value, 'toolUseId');
    const parentAgentId = text(value, 'parentAgentId');
    if (agentType !== undefined) meta.agentType = agentType;
    if (description !== undefined) meta.description = description;
    if (toolUseId !== undefined) meta.toolUseId = toolUseId;
    if (parentAgentId !== undefined) meta.parentAgentId = parentAgentId;
    return { meta };
  } catch (error) {
    return { problem: { path, kind: 'unreadable', reason: errorMessage(error) } };
  }
}

/** What the meta files read so far said, and the problems they had, in the order they were asked for. */
export class SubagentMetas {
  readonly byId = new Map<string, SubagentMeta>();
  readonly problems: FileProblem[] = [];
  /** Meta files that were not one JSON object. */
  readonly bad: string[] = [];
  private readonly asked = new Set<string>();

  /** Reads the meta files at `paths` (each `[agent id or undefined, path]`) not read before. */
  read(paths: readonly (readonly [string | undefined, string])[]): void {
    const todo = paths.filter(([, path]) => !this.asked.has(path));
    for (const [, path] of todo) this.asked.add(path);
    const reads = todo.map(([, path]) => readMeta(path));
    reads.forEach((m, i) => {
      const [id, path] = todo[i] as readonly [string | undefined, string];
      if (m.meta !== undefined && id !== undefined) this.byId.set(id, m.meta);
      if (m.problem !== undefined) this.problems.push(m.problem);
      if (m.bad === true) this.bad.push(path);
    });
  }
}
