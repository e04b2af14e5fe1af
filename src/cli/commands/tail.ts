// `agentlog tail <id>`: the newest entries of a session's transcript, read from the end of the file
// (vendor tree first, then the kept copy), and with --follow the new ones as they are written.
import { flag, flagValue, flagValues, UsageError, type ParsedArgs } from '../args.js';
import { parseAgentList } from '../agent-flag.js';
import { agentSource, type CliContext } from '../context.js';
import { shortTime } from '../render/format.js';
import { defaultTailLines } from './index.js';
import { type AgentSource, looksLikePath, resolveIdTarget, resolvePathTarget } from '../../scan/resolve.js';
// Not the custody index: it re-exports keeping, whose manifest schema would load zod on every tail.
import { Catalog } from '../../custody/catalog.js';
import type { Entry } from '../../custody/entry.js';
import { isCustodyError } from '../../custody/errors.js';
import { type CacheLookupOptions, lookupCachedId } from '../../scan/cache-lookup.js';

function entryLine(e: Entry): string {
  if (e.kind !== 'json') return `${'—'.padEnd(19)}  ${`(${e.kind} line)`.padEnd(16)}  ${e.preview}`;
  const label = [e.type, e.role !== null && e.role !== e.type ? e.role : null].filter((x) => x !== null).join('/');
  return `${shortTime(e.timestamp).padEnd(19)}  ${label.padEnd(16)}  ${e.preview}`;
}

function parseLines(raw: string | undefined): number {
  if (raw === undefined) return defaultTailLines;
  // Range errors are the catalog's (InvalidPageSize); only a non-number is a usage error here.
  if (!/^-?\d+$/.test(raw)) throw new UsageError(`-n takes a whole number, not "${raw}"`);
  return Number(raw);
}

/** The full id for an exact id or a unique prefix (kept copies included). */
async function fullId(target: string, catalog: Catalog, agents: AgentSource, cache: CacheLookupOptions): Promise<string> {
  if ((await catalog.locate(target)) !== null) return target;
  try {
    return (await resolveIdTarget(target, agents, cache)).session.sessionId;
  } catch (error) {
    if (isCustodyError(error) || (error as { code?: unknown }).code === 'SessionNotFound') return target;
    throw error;
  }
}

/**
 * The catalog and session id for what `show` would take: a file or folder (claimed as `show`
 * claims it, read from the agent home it lies in), else an id or a unique prefix.
 */
async function openTarget(target: string, source: AgentSource, ctx: CliContext): Promise<{ catalog: Catalog; id: string }> {
  const options = { stateRoot: ctx.stateRoot, version: ctx.version, now: ctx.now };
  if (looksLikePath(target)) {
    const agents = await source.load();
    const { reader, session } = await resolvePathTarget(
      target,
      agents.map((a) => a.reader),
    );
    const known = agents.some((a) => a.reader.id === reader.id && a.homes.includes(session.home));
    const withHome = known ? agents : [...agents, { reader, homes: [session.home] }];
    const catalog = await Catalog.open({ ...options, agents: withHome });
    // Paging and following read through custody, which finds a session by its agent's layout.
    if ((await catalog.locate(session.sessionId)) === null)
      throw new UsageError(
        `${target} is a ${reader.displayName} session outside its agent's folder layout and the kept copies; tail reads sessions where the agent keeps them (show reads any file)`,
      );
    return { catalog, id: session.sessionId };
  }
  const cache = { stateRoot: ctx.stateRoot, readerVersion: ctx.version };
  // An id the scan cache knows, verified against the files: custody then looks in that one
  // home instead of every agent's (a miss or a kept-only session walks them all as before).
  const cached = await lookupCachedId(target, source, cache);
  if (cached !== null) {
    // The session it just verified is handed on: locating it again would discover its whole home
    // (an agent whose files are not named by the id, Kimi Code: ~35 ms of the bench's tail).
    const one = await Catalog.open({
      ...options,
      agents: [{ reader: cached.reader, homes: [cached.session.home] }],
      known: [cached.session],
    });
    if ((await one.locate(cached.session.sessionId)) !== null) return { catalog: one, id: cached.session.sessionId };
  }
  const catalog = await Catalog.open({ ...options, agents: await source.load() });
  return { catalog, id: await fullId(target, catalog, source, cache) };
}

function writeEntries(entries: readonly Entry[], ctx: CliContext): void {
  if (entries.length > 0) ctx.stdout.write(`${entries.map(entryLine).join('\n')}\n`);
}

export async function run(args: ParsedArgs, ctx: CliContext): Promise<number> {
  const target = args.positionals[0];
  if (target === undefined || args.positionals.length > 1)
    throw new UsageError('tail takes one session: a file, a folder, an id or a unique id prefix');
  const limit = parseLines(flagValue(args, 'lines'));
  const agents = agentSource(ctx, await parseAgentList(flagValues(args, 'agent')));
  const { catalog, id } = await openTarget(target, agents, ctx);
  const page = await catalog.lastEntries(id, limit);
  const json = flag(args, 'json');
  if (!flag(args, 'follow')) {
    if (json) ctx.stdout.write(`${JSON.stringify({ session: page.session, entries: page.entries, older: page.older }, null, 2)}\n`);
    else writeEntries(page.entries, ctx);
    return 0;
  }
  // With --follow, --json is JSON lines: the first page, then one line per batch.
  if (json) ctx.stdout.write(`${JSON.stringify({ session: page.session, entries: page.entries, restart: null })}\n`);
  else writeEntries(page.entries, ctx);
  const stop = new AbortController();
  void ctx.interrupted().then(() => stop.abort());
  for await (const batch of catalog.follow(id, { from: page.newer, signal: stop.signal })) {
    if (json) {
      ctx.stdout.write(`${JSON.stringify(batch)}\n`);
      continue;
    }
    if (batch.restart !== null) {
      ctx.stderr.write(`-- transcript ${batch.restart.reason}: reading ${batch.session.path} from byte ${batch.restart.resumed_at} --\n`);
    }
    writeEntries(batch.entries, ctx);
  }
  return 0;
}
