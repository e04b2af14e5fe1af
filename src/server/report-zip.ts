// GET /api/session/{agent}/{id}/report.zip: what a person attaches to a bug report — the session's
// kept tree (custody's copy, as the vendor laid it out) and the lines of serve.log from its time span.
import { Readable } from 'node:stream';
import yazl from 'yazl';
import type { Located } from '../custody/index.js';
import { custodyErrors } from '../custody/errors.js';
import { openRead } from '../custody/safe-fs.js';
import { streamEntries } from '../custody/stream.js';
import type { ServeLog } from './serve-log.js';
import type { SessionSources } from './session-source.js';
import type { AgentId } from '../record/types.js';

const marginMs = 10 * 60_000;

/** The session's time span: its first stamped entry to its files' last write, widened by a margin. */
async function spanOf(loc: Located): Promise<{ from: number; to: number }> {
  const session = await loc.session();
  const to = Math.max(...session.files.map((f) => f.mtimeMs), 0) + marginMs;
  let from = 0;
  if (loc.main.endsWith('.jsonl')) {
    const { handle, stat } = await openRead(loc.main);
    let seen = 0;
    for await (const entry of streamEntries(handle, stat.size)) {
      const at = entry.timestamp === null ? Number.NaN : Date.parse(entry.timestamp);
      if (!Number.isNaN(at)) {
        from = at - marginMs;
        break;
      }
      if (++seen > 50) break;
    }
  }
  return { from, to };
}

export async function reportZip(
  sources: SessionSources,
  log: ServeLog,
  agent: AgentId,
  id: string,
  meta: { version: string; now: number },
): Promise<{ name: string; body: ReadableStream<Uint8Array> }> {
  const catalog = await sources.catalog(agent);
  const kept = await catalog.locate(id, { only: 'kept' });
  if (kept === null)
    throw custodyErrors.sessionNotFound(id, `the kept copies (it is not kept yet: let serve sweep, or run \`agentlog keep ${id}\`)`);
  const zip = new yazl.ZipFile();
  const tree = await kept.reader.tree(await kept.session());
  for (const entry of tree) {
    const name = `kept/${entry.relPath}`;
    if (entry.kind === 'file') zip.addFile(entry.path, name);
    else zip.addBuffer(await entry.produce(), name);
  }
  const span = await spanOf(kept);
  const lines = await log.span(span.from, span.to);
  zip.addBuffer(Buffer.from(lines.length === 0 ? '' : `${lines.join('\n')}\n`), 'serve.log');
  zip.addBuffer(
    Buffer.from(
      `${JSON.stringify({ agent, session_id: id, root: 'kept', files: tree.length, agentlog_version: meta.version, made_at: new Date(meta.now).toISOString() }, null, 2)}\n`,
    ),
    'report.json',
  );
  zip.end();
  return {
    name: `agentlog-${agent}-${id}.zip`,
    body: Readable.toWeb(zip.outputStream as Readable) as unknown as ReadableStream<Uint8Array>,
  };
}
