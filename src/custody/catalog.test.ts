import { appendFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeCodeReader } from '../agents/claude-code/reader.js';
import type { AgentReader, DiscoveredSession } from '../agents/types.js';
import { tempDir } from '../../test/support/temp.js';
import { Catalog } from './catalog.js';
import type { Entry } from './entry.js';
import { maxPageSize } from './errors.js';
import { decodeToken, encodeToken } from './page-token.js';
import { claudeHome, demoAgent, demoId, jsonlReader, line, mainRel, sampleId, smallId, writeSession } from './test-support/homes.js';
import { hasCorpus } from '../../test/support/corpus.js';

async function all<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

const uuids = (entries: readonly Entry[]): unknown[] => entries.map((e) => e.object?.uuid ?? e.text);

describe.skipIf(!hasCorpus)('locate', () => {
  it('resolves the vendor tree first, then the kept copy once the vendor pruned it, naming the root that won', async () => {
    const t = await claudeHome();
    const catalog = await t.catalog();
    expect(await catalog.locate('00000000-0000-4000-8000-000000000000')).toBeNull();
    const live = await catalog.locate(demoId);
    expect(live).toMatchObject({
      root: 'vendor',
      rootPath: t.claude,
      main: t.vendor(mainRel('-subagent-demo', demoId)),
      mainRel: mainRel('-subagent-demo', demoId),
    });
    await catalog.keep({ ids: [demoId] });
    await rm(t.vendor('projects/-subagent-demo'), { recursive: true });
    const kept = await (await t.catalog()).locate(demoId);
    expect(kept?.root).toBe('kept');
    expect(kept?.main.startsWith(join(t.state, 'kept'))).toBe(true);
    expect(kept?.mainRel).toBe(mainRel('-subagent-demo', demoId));
  });

  it('with a known cwd looks only in the folder that cwd encodes to, never decoding folder names', async () => {
    const t = await claudeHome();
    // `/sample.project` and `/sample/project` both encode to `-sample-project`: encoding is one-way.
    expect(await (await t.catalog({ cwd: '/sample.project' })).locate(sampleId)).toMatchObject({ root: 'vendor' });
    expect(await (await t.catalog({ cwd: '/sample/project' })).locate(sampleId)).toMatchObject({ root: 'vendor' });
    expect(await (await t.catalog({ cwd: '/elsewhere' })).locate(sampleId)).toBeNull();
  });

  it('rejects a traversing id before building any path', async () => {
    const catalog = await (await claudeHome()).catalog();
    for (const bad of ['../x', 'a/b', '..', '', '/etc/passwd', 'a\u0000b']) {
      await expect(catalog.locate(bad), bad).rejects.toMatchObject({ code: 'InvalidSessionId' });
      await expect(catalog.lastEntries(bad, 1), bad).rejects.toMatchObject({ code: 'InvalidSessionId' });
      await expect(catalog.keep({ ids: [bad] }), bad).rejects.toMatchObject({ code: 'InvalidSessionId' });
      await expect(all(catalog.subagentEntries(demoId, bad)), bad).rejects.toMatchObject({ code: 'InvalidSessionId' });
    }
  });

  it('fails with IOError when a vendor folder cannot be read, never falling through to the kept copy', async () => {
    const t = await claudeHome();
    await (await t.catalog()).keep({ ids: [demoId] });
    const denied = Object.assign(new Error('permission denied'), { code: 'EACCES' });
    const blind: AgentReader = {
      ...claudeCodeReader,
      custody: {
        ...claudeCodeReader.custody,
        sessionPaths: async (home) => (home === t.claude ? Promise.reject(denied) : claudeCodeReader.custody!.sessionPaths!(home, demoId)),
      },
    };
    const catalog = await t.catalog({ agents: [{ reader: blind, homes: [t.claude] }] });
    await expect(catalog.locate(demoId)).rejects.toMatchObject({ code: 'IOError', path: t.claude });
    const noHook: AgentReader = {
      ...jsonlReader(),
      discover: async (home) => ({ sessions: [], problems: [{ path: join(home, 'sessions'), kind: 'unreadable', reason: 'EACCES' }] }),
    };
    await mkdir(t.vendor('sessions'));
    await expect((await t.catalog({ agents: [{ reader: noHook, homes: [t.claude] }] })).locate('s1')).rejects.toMatchObject({
      code: 'IOError',
    });
  });
});

describe.skipIf(!hasCorpus)('entries', () => {
  it('streams the main thread forward with line numbers, keeping unparseable lines as raw entries', async () => {
    const t = await claudeHome();
    const reader = jsonlReader();
    await writeSession(t.claude, 's1', [line(1), line(2), '', 'garbage {', line(3)]);
    await appendFile(join(t.claude, 'sessions/s1.jsonl'), '{"torn":');
    const entries = await all((await t.catalog({ agents: [{ reader, homes: [t.claude] }] })).entries('s1'));
    expect(entries.map((e) => [e.line, e.kind, e.object?.uuid ?? e.text])).toEqual([
      [1, 'json', 'u1'],
      [2, 'json', 'u2'],
      [4, 'raw', 'garbage {'],
      [5, 'json', 'u3'],
    ]);
  });

  it('fails SessionNotFound for an unknown session', async () => {
    const catalog = await (await claudeHome()).catalog();
    await expect(all(catalog.entries('00000000-0000-4000-8000-000000000000'))).rejects.toMatchObject({ code: 'SessionNotFound' });
    await expect(catalog.lastEntries('00000000-0000-4000-8000-000000000000', 5)).rejects.toMatchObject({ code: 'SessionNotFound' });
  });

  it('says a session that is not one JSONL transcript cannot be paged, and tails it as its record', async () => {
    const t = await claudeHome();
    const reader = jsonlReader({ ext: '.json' });
    await writeSession(t.claude, 'g1', ['{"messages":[]}'], '.json');
    const catalog = await t.catalog({ agents: [{ reader, homes: [t.claude] }] });
    await expect(all(catalog.entries('g1'))).rejects.toMatchObject({ code: 'NotPageable' });
    // This reader finds no session in the document: no turns, and nothing older.
    expect(await catalog.lastEntries('g1', 5)).toMatchObject({ entries: [], older: null });
  });
});

describe.skipIf(!hasCorpus)('pages', () => {
  it('tails the newest entries and pages backward to the first with tokens', async () => {
    const t = await claudeHome();
    const catalog = await t.catalog();
    const entries = await all(catalog.entries(sampleId));
    const last = await catalog.lastEntries(sampleId, 50);
    expect(uuids(last.entries)).toEqual(uuids(entries.slice(-50)));
    expect(last.entries.every((e) => e.line === null)).toBe(true);
    const seen = [...last.entries];
    let token = last.older;
    while (token !== null) {
      const page = await catalog.entriesBefore(token, 97);
      expect(page.entries.length).toBeLessThanOrEqual(97);
      seen.unshift(...page.entries);
      token = page.older;
    }
    expect(uuids(seen)).toEqual(uuids(entries));
    expect(seen.map((e) => e.offset)).toEqual(entries.map((e) => e.offset));
  });

  it('returns everything with no older token when the limit is above the count', async () => {
    const t = await claudeHome();
    const page = await (await t.catalog()).lastEntries(demoId, 10);
    expect(page.entries.map((e) => e.object?.uuid)).toEqual(['psys1', 'pu1', 'pa1']);
    expect(page.older).toBeNull();
    expect(page.session).toMatchObject({ agent: 'claude_code', session_id: demoId, root: 'vendor' });
  });

  it('counts entries, not raw lines: blank lines never shorten a page', async () => {
    const t = await claudeHome();
    const reader = jsonlReader();
    await writeSession(t.claude, 's1', [line(1), '', line(2), '', '', 'raw', '', line(3), '']);
    const page = await (await t.catalog({ agents: [{ reader, homes: [t.claude] }] })).lastEntries('s1', 3);
    expect(page.entries.map((e) => e.object?.uuid ?? e.text)).toEqual(['u2', 'raw', 'u3']);
  });

  it('rejects page sizes outside 1..10,000 before any lookup', async () => {
    const catalog = await (await claudeHome()).catalog();
    for (const n of [0, -3, maxPageSize + 1, 1.5, Number.NaN]) {
      await expect(catalog.lastEntries('../not-even-valid', n), String(n)).rejects.toMatchObject({ code: 'InvalidPageSize' });
      await expect(catalog.entriesBefore('al1.x', n), String(n)).rejects.toMatchObject({ code: 'InvalidPageSize' });
    }
    expect((await catalog.lastEntries(demoId, maxPageSize)).entries).toHaveLength(3);
  });

  it('keeps a token valid while the file grows', async () => {
    const t = await claudeHome();
    const catalog = await t.catalog();
    const page = await catalog.lastEntries(smallId, 5);
    await appendFile(t.vendor(mainRel('-sample-project', smallId)), `${line(1)}\n${line(2)}\n`);
    const before = await catalog.entriesBefore(page.older as string, 3);
    const expected = (await all(catalog.entries(smallId))).filter((e) => e.offset < (page.entries[0] as Entry).offset).slice(-3);
    expect(uuids(before.entries)).toEqual(uuids(expected));
  });

  it('fails PageSourceMoved when the vendor was pruned between pages, and tails the kept copy instead', async () => {
    const t = await claudeHome();
    const catalog = await t.catalog();
    await catalog.keep({ ids: [sampleId] });
    const page = await catalog.lastEntries(sampleId, 20);
    await rm(t.vendor(mainRel('-sample-project', sampleId)));
    const after = await t.catalog();
    await expect(after.entriesBefore(page.older as string, 20)).rejects.toMatchObject({ code: 'PageSourceMoved' });
    const kept = await after.lastEntries(sampleId, 20);
    expect(kept.session.root).toBe('kept');
    expect(uuids(kept.entries)).toEqual(uuids(page.entries));
    expect(uuids((await after.entriesBefore(kept.older as string, 5)).entries)).toHaveLength(5);
  });

  it('fails PageSourceMoved for a rewritten file, SessionNotFound when it is gone everywhere, InvalidPageToken when damaged', async () => {
    const t = await claudeHome();
    const catalog = await t.catalog();
    const page = await catalog.lastEntries(smallId, 3);
    const path = t.vendor(mainRel('-sample-project', smallId));
    const original = await readFile(path);
    await writeFile(path, Buffer.concat([Buffer.from(`${line(0)}\n`), original]));
    await expect(catalog.entriesBefore(page.older as string, 3)).rejects.toMatchObject({ code: 'PageSourceMoved' });
    const forged = encodeToken({ ...decodeToken(page.older as string), o: 7 });
    await expect(catalog.entriesBefore(forged, 3)).rejects.toMatchObject({ code: 'PageSourceMoved' });
    await rm(path);
    await expect(catalog.entriesBefore(page.older as string, 3)).rejects.toMatchObject({ code: 'SessionNotFound' });
    await expect(catalog.entriesBefore((page.older as string).slice(0, 30), 3)).rejects.toMatchObject({ code: 'InvalidPageToken' });
  });

  it('fails CorruptTranscript when no line break is found within the scan budget', async () => {
    const t = await claudeHome();
    const reader = jsonlReader();
    await writeSession(t.claude, 's1', [line(1), `{"big":"${'x'.repeat(5000)}"}`]);
    const catalog = await t.catalog({ agents: [{ reader, homes: [t.claude] }], page: { scanBudgetBytes: 1024, blockBytes: 256 } });
    await expect(catalog.lastEntries('s1', 2)).rejects.toMatchObject({ code: 'CorruptTranscript' });
  });
});

describe.skipIf(!hasCorpus)('subagentEntries', () => {
  it('streams a sidechain joined by the sub-agent id (the real meta has no toolUseId) or by the meta toolUseId', async () => {
    const t = await claudeHome();
    const catalog = await t.catalog();
    const byAgent = await all(catalog.subagentEntries(demoId, demoAgent));
    expect(byAgent.map((e) => e.object?.uuid)).toEqual(['cu1', 'ca1', 'cu2', 'catt1']);
    expect(uuids(await all(catalog.subagentEntries(demoId, `agent-${demoAgent}`)))).toEqual(['cu1', 'ca1', 'cu2', 'catt1']);
    const meta = t.vendor(`projects/-subagent-demo/${demoId}/subagents/agent-${demoAgent}.meta.json`);
    await writeFile(meta, JSON.stringify({ agentType: 'general-purpose', description: 'search', toolUseId: 'toolu_01PARENT' }));
    expect(uuids(await all(catalog.subagentEntries(demoId, 'toolu_01PARENT')))).toEqual(['cu1', 'ca1', 'cu2', 'catt1']);
    await expect(all(catalog.subagentEntries(demoId, 'toolu_unknown'))).rejects.toMatchObject({ code: 'SubAgentNotFound' });
    await expect(all(catalog.subagentEntries(smallId, demoAgent))).rejects.toMatchObject({ code: 'SubAgentNotFound' });
  });

  it('falls back to the kept copy when the vendor pruned only the sub-agent files, and after a full prune', async () => {
    const t = await claudeHome();
    await (await t.catalog()).keep({ ids: [demoId] });
    await rm(t.vendor(`projects/-subagent-demo/${demoId}`), { recursive: true });
    const catalog = await t.catalog();
    expect((await catalog.locate(demoId))?.root).toBe('vendor');
    expect(uuids(await all(catalog.subagentEntries(demoId, demoAgent)))).toEqual(['cu1', 'ca1', 'cu2', 'catt1']);
    await rm(t.vendor('projects/-subagent-demo'), { recursive: true });
    expect(uuids(await all((await t.catalog()).subagentEntries(demoId, demoAgent)))).toEqual(['cu1', 'ca1', 'cu2', 'catt1']);
  });

  it('says an agent without sidechain files has no sub-agent', async () => {
    const t = await claudeHome();
    await writeSession(t.claude, 's1', [line(1)]);
    const catalog = await t.catalog({ agents: [{ reader: jsonlReader(), homes: [t.claude] }] });
    await expect(all(catalog.subagentEntries('s1', 'x'))).rejects.toMatchObject({ code: 'SubAgentNotFound' });
  });
});

describe.skipIf(!hasCorpus)('prune simulation', () => {
  it('keeps, loses the vendor files, reads everything back from custody, and a second keep is a no-op', async () => {
    const t = await claudeHome();
    const live = await t.catalog();
    const ids = [sampleId, smallId, demoId];
    const before = new Map<string, unknown[]>();
    for (const id of ids) before.set(id, uuids(await all(live.entries(id))));
    const tails = new Map<string, unknown[]>();
    for (const id of ids) tails.set(id, uuids((await live.lastEntries(id, 7)).entries));
    const sub = uuids(await all(live.subagentEntries(demoId, demoAgent)));
    const first = await live.keep();
    expect(first.totals.failed).toBe(0);
    await rm(join(t.claude, 'projects'), { recursive: true });
    const pruned = await t.catalog();
    for (const id of ids) {
      expect((await pruned.locate(id))?.root, id).toBe('kept');
      expect(uuids(await all(pruned.entries(id)))).toEqual(before.get(id));
      expect(uuids((await pruned.lastEntries(id, 7)).entries)).toEqual(tails.get(id));
    }
    expect(uuids(await all(pruned.subagentEntries(demoId, demoAgent)))).toEqual(sub);
    const again = await pruned.keep({ ids });
    expect(again.sessions.map((s) => s.root)).toEqual(['kept', 'kept', 'kept']);
    expect(again.totals).toMatchObject({ copied: 0, extended: 0, refreshed: 0, skipped: 0, failed: 0 });
    expect((await pruned.keep()).sessions).toEqual([]);
  });
});

describe.skipIf(!hasCorpus)('a transcript pruned between locate and open', () => {
  it('is located once more (landing on the kept copy) instead of failing', async () => {
    const { openTranscript } = await import('./transcript.js');
    const t = await claudeHome();
    const catalog = await t.catalog();
    await catalog.keep({ ids: [demoId] });
    const stale = await catalog.locate(demoId);
    await rm(t.vendor('projects/-subagent-demo'), { recursive: true });
    const opened = await openTranscript(stale!, () => catalog.locate(demoId), 'test');
    await opened.handle.close();
    expect(opened.loc.root).toBe('kept');
    await rm(join(t.state, 'kept'), { recursive: true });
    await expect(openTranscript(stale!, () => catalog.locate(demoId), 'test')).rejects.toMatchObject({ code: 'SessionNotFound' });
  });
});

describe('locate with sessions the caller verified', () => {
  it('finds a known session without discovering its home, and only while its main file is there', async () => {
    const home = await tempDir('agentlog-known-');
    const state = join(home, '.agentlog');
    // Where this reader's discovery never looks: only the hint can find it.
    await mkdir(join(home, 'elsewhere'), { recursive: true });
    const path = join(home, 'elsewhere', 'k1.jsonl');
    await writeFile(path, `${line(1)}\n${line(2)}\n`);
    const known: DiscoveredSession = { agent: 'pi', sessionId: 'k1', home, path, files: [{ path, size: 1, mtimeMs: 1 }] };
    const reader = jsonlReader();
    const open = (extra: { known?: DiscoveredSession[] }) =>
      Catalog.open({ stateRoot: state, agents: [{ reader, homes: [home] }], version: 't', ...extra });
    expect(await (await open({})).locate('k1')).toBeNull();
    const hinted = await open({ known: [known] });
    expect(await hinted.locate('k1')).toMatchObject({ root: 'vendor', main: path });
    expect((await hinted.lastEntries('k1', 5)).entries.map((e) => e.object?.uuid)).toEqual(['u1', 'u2']);
    // A known session of another home, or of another id, is no answer here.
    expect(await (await open({ known: [{ ...known, home: join(home, 'other') }] })).locate('k1')).toBeNull();
    expect(await hinted.locate('k2')).toBeNull();
    await rm(path);
    expect(await hinted.locate('k1')).toBeNull();
  });
});
