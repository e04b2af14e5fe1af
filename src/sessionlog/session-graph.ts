// `sessionGraph(stateRoot)`: the parent/child graph of every session, rebuilt purely from the
// `session_identity` and `session_relationship` rows of the logs (seed "Multi-Session and the
// Session Graph"). A log is a wrapper only when an identity row names its own session (§9 item 6).
import { join } from 'node:path';
import { forEachLine } from '../fs/read-lines.js';
import { bool, parseObjectLine, str } from '../json/narrow.js';
import { listSessions, type MetaProblem } from './find-session.js';
import type { LineProblem } from './line-problem.js';
import { toLogEvent } from './log-event.js';
import { files } from './paths.js';

export interface BackendIdentity {
  source: string;
  backend_session_id: string;
}

export interface GraphNode {
  session_id: string;
  /** The session's folder; null for a session only named by another log's rows. */
  dir: string | null;
  backends: BackendIdentity[];
  /** The log mirrors an external backend (an identity row names this very session). */
  wrapper: boolean;
}

export interface GraphEdge {
  parent: string;
  child: string;
  relationship: string;
  ephemeral: boolean;
  ts_ms: number | null;
  /** The session whose log recorded the edge. */
  logged_in: string;
}

export interface SessionGraph {
  nodes: GraphNode[];
  edges: GraphEdge[];
  problems: (LineProblem | MetaProblem)[];
}

export async function sessionGraph(stateRoot: string): Promise<SessionGraph> {
  const { sessions, problems } = await listSessions(stateRoot);
  const graphProblems: (LineProblem | MetaProblem)[] = [...problems];
  const nodes = new Map<string, GraphNode>();
  const node = (id: string): GraphNode => {
    let n = nodes.get(id);
    if (n === undefined) {
      n = { session_id: id, dir: null, backends: [], wrapper: false };
      nodes.set(id, n);
    }
    return n;
  };
  const edges = new Map<string, GraphEdge>();
  for (const s of sessions) {
    node(s.sessionId).dir = s.dir;
    const path = join(s.dir, files.events);
    let line = 0;
    try {
      await forEachLine(path, (text, info) => {
        line++;
        // Cheap pre-filter: only two events matter and most rows are neither.
        if (!text.includes('"session_identity"') && !text.includes('"session_relationship"')) return;
        const o = parseObjectLine(text);
        const e = o === undefined ? undefined : toLogEvent(o);
        if (e === undefined) {
          if (info.complete) graphProblems.push({ file: path, line, reason: 'not a log row' });
          return;
        }
        if (e.event === 'session_identity') {
          const id = str(e.data, 'session_id');
          const source = str(e.data, 'source');
          const backend = str(e.data, 'backend_session_id');
          if (id === undefined || source === undefined || backend === undefined) return;
          const n = node(id);
          if (!n.backends.some((b) => b.source === source && b.backend_session_id === backend))
            n.backends.push({ source, backend_session_id: backend });
          if (id === s.sessionId) n.wrapper = true;
        } else if (e.event === 'session_relationship') {
          const parent = str(e.data, 'parent_session_id');
          const child = str(e.data, 'child_session_id');
          const relationship = str(e.data, 'relationship') ?? '';
          if (parent === undefined || child === undefined) return;
          node(parent);
          node(child);
          const key = `${parent}\u0000${child}\u0000${relationship}`;
          if (!edges.has(key))
            edges.set(key, {
              parent,
              child,
              relationship,
              ephemeral: bool(e.data, 'ephemeral') ?? false,
              ts_ms: e.ts_ms ?? null,
              logged_in: s.sessionId,
            });
        }
      });
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code;
      if (code !== 'ENOENT') graphProblems.push({ file: path, line: 0, reason: error instanceof Error ? error.message : String(error) });
    }
  }
  return { nodes: [...nodes.values()], edges: [...edges.values()], problems: graphProblems };
}
