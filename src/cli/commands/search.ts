// `agentlog search <terms…>`: where was this said? Sessions newest best hit first, up to 3 hits each
// with the terms highlighted; --json prints exactly the body the HTTP route serves.
import type { CliContext } from '../context.js';
import { flag, flagValue, flagValues, intFlag, UsageError, type ParsedArgs } from '../args.js';
import { parseAgentList } from '../agent-flag.js';
import { ansiStyle, plainStyle, type Style } from '../render/format.js';
import { queryLimits, type Budgets } from '../../search/query.js';
import { searchThrough } from '../../search/search-through.js';
import type { SearchBody, SearchHit, SessionGroup } from '../../search/response.js';
import { defaultArenaBytes, ShardCache } from '../../search/shard-cache.js';
import { storeRoot } from '../../search/store.js';

function when(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
}

/** The snippet on one line, its highlight ranges in bold (on a TTY), ellipses where it was cut. */
export function renderSnippet(hit: SearchHit, style: Style): string {
  const buf = Buffer.from(hit.snippet, 'utf8');
  const parts: string[] = [];
  let at = 0;
  for (const [s, e] of hit.ranges) {
    const from = s - hit.snippet_offset_bytes;
    const to = e - hit.snippet_offset_bytes;
    if (from < at || to > buf.length) continue;
    parts.push(buf.toString('utf8', at, from), style.bold(buf.toString('utf8', from, to)));
    at = to;
  }
  parts.push(buf.toString('utf8', at));
  const line = parts.join('').replace(/\s*\n\s*/g, ' ⏎ ');
  const lead = hit.snippet_offset_bytes > 0 ? '…' : '';
  const tail = buf.length >= 270 ? '…' : '';
  return `${lead}${line}${tail}`;
}

function badges(hit: SearchHit, style: Style): string {
  const b: string[] = [];
  if (hit.superseded) b.push('superseded');
  if (hit.subagent) b.push('subagent');
  if (hit.truncated) b.push('truncated');
  return b.length === 0 ? '' : ` ${style.dim(b.map((x) => `[${x}]`).join(' '))}`;
}

function groupText(g: SessionGroup, style: Style): string {
  const head = `${style.accent(g.agent)}  ${g.session_id}  ${g.total_hits} hit${g.total_hits === 1 ? '' : 's'}${g.source_gone ? style.dim(' [source gone]') : ''}`;
  const hits = g.hits.map((h) => `  ${when(h.ts_ms)}  ${h.role.padEnd(9)}${badges(h, style)}\n    ${renderSnippet(h, style)}`);
  return [head, ...hits].join('\n');
}

export function searchText(body: SearchBody, style: Style): string {
  return body.sessions.map((g) => groupText(g, style)).join('\n\n');
}

const quoted = (terms: readonly string[]): string => terms.map((t) => `"${t}"`).join(' ');

/**
 * The lines after the results. "No messages match" only when the whole window was searched; a
 * partial answer says what it searched and how to go on.
 */
export function footerLines(body: SearchBody, terms: readonly string[], continued: boolean): string[] {
  if (body.state === 'building')
    // The same answer covers a store never built and one of an older format that the next sweep rebuilds.
    return [
      'the search index is not built yet for this version of agentlog: run `agentlog index` first (or keep `agentlog index --watch` running)',
    ];
  const out: string[] = [];
  const s = body.searched;
  if (body.sessions.length === 0 && s.complete) {
    const d = body.window_days;
    const what = continued ? 'no more messages' : d === 0 ? 'no indexed messages' : `no messages in the last ${d} day${d === 1 ? '' : 's'}`;
    out.push(`${what} match ${quoted(terms)}`);
  } else if (body.sessions.length === 0 || body.state === 'partial') {
    const since = s.newest_unsearched_ms === null ? '' : ` (every hit after ${when(s.newest_unsearched_ms)} is shown)`;
    const why = body.state !== 'partial' ? '' : body.partial_reason === 'timeout' ? 'out of time: ' : 'the page hit its size budget: ';
    out.push(`partial: ${why}searched ${s.sessions} of ${s.of} sessions${since}`);
  }
  if (body.cursor !== null) out.push(`more: add --cursor ${body.cursor}`);
  const stale = body.coverage.stale_by_ms;
  if (stale !== null && stale > 60 * 60_000)
    out.push(`the index was last updated ${Math.round(stale / 60_000)} minutes ago: run \`agentlog index\` for newer messages`);
  return out;
}

/**
 * A person waits at the terminal: each page may take a couple of seconds and read more from disk
 * than a server would allow per request, and short pages are continued for up to a minute.
 */
const cliBudgets: Partial<Budgets> = { timeMs: 2000, freshLoadBytes: defaultArenaBytes };
const cliWaitMs = 60_000;

export async function run(args: ParsedArgs, ctx: CliContext): Promise<number> {
  const terms = args.positionals;
  if (terms.length === 0) throw new UsageError('give the terms to search for, e.g. `agentlog search cursor bug`');
  const limit = intFlag(args, 'limit', 1, queryLimits.maxLimit);
  const windowDays = intFlag(args, 'window-days', 0, 36_500);
  const agents = await parseAgentList(flagValues(args, 'agent'));
  const root = storeRoot(ctx.stateRoot);
  const body = await searchThrough(
    {
      q: terms.join(' '),
      ...(agents !== undefined ? { agents } : {}),
      includeSuperseded: !flag(args, 'no-superseded'),
      includeSubagents: !flag(args, 'no-subagents'),
      ...(limit !== undefined ? { limit } : {}),
      cursor: flagValue(args, 'cursor') ?? null,
      ...(windowDays !== undefined ? { windowDays } : {}),
    },
    { root, cache: new ShardCache(root), now: () => ctx.now(), budgets: cliBudgets },
    { waitMs: cliWaitMs },
  );
  if (flag(args, 'json')) {
    ctx.stdout.write(`${JSON.stringify(body)}\n`);
    return 0;
  }
  const text = searchText(body, ctx.color ? ansiStyle : plainStyle);
  if (text !== '') ctx.stdout.write(`${text}\n`);
  for (const l of footerLines(body, terms, flagValue(args, 'cursor') !== undefined)) ctx.stderr.write(`${l}\n`);
  return 0;
}
