import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp.js';
import { SessionLog } from './session-log.js';
import { sessionGraph } from './session-graph.js';

describe('sessionGraph', () => {
  it('rebuilds nodes and edges from identity and relationship rows, marking only self-named wrappers', async () => {
    const root = await tempDir();
    const daemon = await SessionLog.open({ stateRoot: root, projectRoot: '/p', task: 'daemon' });
    const child = await SessionLog.open({ stateRoot: root, projectRoot: '/p', task: 'child' });
    child.sessionIdentity(child.sessionId, 'codex', 'backend-1');
    // The daemon's log carries a tee'd copy of the child's identity: that does not make it a wrapper.
    daemon.sessionIdentity(child.sessionId, 'codex', 'backend-1');
    daemon.sessionRelationship(daemon.sessionId, child.sessionId, 'subagent');
    daemon.sessionRelationship(daemon.sessionId, child.sessionId, 'subagent');
    daemon.sessionRelationship(daemon.sessionId, 'ghost', 'fork', true);
    await daemon.close();
    await child.close();
    const g = await sessionGraph(root);
    const byId = new Map(g.nodes.map((n) => [n.session_id, n]));
    expect(byId.get(daemon.sessionId)).toMatchObject({ dir: daemon.dir, wrapper: false, backends: [] });
    expect(byId.get(child.sessionId)).toMatchObject({
      dir: child.dir,
      wrapper: true,
      backends: [{ source: 'codex', backend_session_id: 'backend-1' }],
    });
    expect(byId.get('ghost')).toMatchObject({ dir: null });
    expect(g.edges.map((e) => [e.parent, e.child, e.relationship, e.ephemeral, e.logged_in])).toEqual([
      [daemon.sessionId, child.sessionId, 'subagent', false, daemon.sessionId],
      [daemon.sessionId, 'ghost', 'fork', true, daemon.sessionId],
    ]);
    expect(g.problems).toEqual([]);
    expect((await sessionGraph(`${root}/none`)).nodes).toEqual([]);
  });
});
