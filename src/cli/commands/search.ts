// `agentlog search <terms…>`: where was this said? Sessions newest best hit first, up to 3 hits each
// with the terms highlighted; --json prints exactly the body the HTTP route serves.
import { commonFlags, flag, flagValue, flagValues, intFlag, UsageError } from '../args.js';
import { agentFlagHelp, parseAgentList } from '../agent-flag.js';
import type { Command } from '../command.js';
import type { CliContext } from '../context.js';
import { ansiStyle, plainStyle, type Style } from '../render/format.js';
import { queryLimits, search } from '../../search/query.js';
import type { SearchBody, SearchHit, SessionGroup } from '../../search/response.js';
import { ShardCache } from '../../search/shard-cache.js';
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

function footer(body: SearchBody, terms: readonly string[], ctx: CliContext): void {
  const err = ctx.stderr;
  if (body.state === 'building') {
    err.write('the search index is empty: run `agentlog index` first (or keep `agentlog index --watch` running)\n');
    return;
  }
  if (body.sessions.length === 0)
    err.write(
      `no messages in the last ${body.window_days === 0 ? 'any' : `${body.window_days} days`} match ${terms.map((t) => `"${t}"`).join(' ')}\n`,
    );
  if (body.state === 'partial') {
    err.write(
      body.partial_reason === 'timeout'
        ? 'partial: the search ran out of time; run it again for the rest\n'
        : 'partial: the page hit its size budget\n',
    );
  }
  if (body.cursor !== null) err.write(`more: add --cursor ${body.cursor}\n`);
  const stale = body.coverage.stale_by_ms;
  if (stale !== null && stale > 60 * 60_000)
    err.write(`the index was last updated ${Math.round(stale / 60_000)} minutes ago: run \`agentlog index\` for newer messages\n`);
}

export const searchCommand: Command = {
  name: 'search',
  summary: 'find where something was said: user and assistant messages across agents',
  usage: 'search <terms…> [--agent A[,B]] [--no-superseded] [--no-subagents] [--limit N] [--cursor C] [--window-days D] [--json]',
  flags: [
    { name: 'agent', value: 'agents', repeat: true, help: agentFlagHelp },
    { name: 'no-superseded', help: 'leave out rewound, undone or abandoned messages' },
    { name: 'no-subagents', help: 'leave out what subagents said' },
    { name: 'limit', value: 'N', help: `sessions per page (1-${queryLimits.maxLimit}, default ${queryLimits.defaultLimit})` },
    { name: 'cursor', value: 'C', help: 'the next page, from the cursor a previous page printed' },
    { name: 'window-days', value: 'D', help: 'search the last D days (default: the index window, 14; 0 = everything indexed)' },
    ...commonFlags,
  ],
  async run(args, ctx) {
    const terms = args.positionals;
    if (terms.length === 0) throw new UsageError('give the terms to search for, e.g. `agentlog search cursor bug`');
    const limit = intFlag(args, 'limit', 1, queryLimits.maxLimit);
    const windowDays = intFlag(args, 'window-days', 0, 36_500);
    const agents = parseAgentList(flagValues(args, 'agent'));
    const root = storeRoot(ctx.stateRoot);
    const body = await search(
      {
        q: terms.join(' '),
        ...(agents !== undefined ? { agents } : {}),
        includeSuperseded: !flag(args, 'no-superseded'),
        includeSubagents: !flag(args, 'no-subagents'),
        ...(limit !== undefined ? { limit } : {}),
        cursor: flagValue(args, 'cursor') ?? null,
        ...(windowDays !== undefined ? { windowDays } : {}),
      },
      { root, cache: new ShardCache(root), now: () => ctx.now() },
    );
    if (flag(args, 'json')) {
      ctx.stdout.write(`${JSON.stringify(body)}\n`);
      return 0;
    }
    const text = searchText(body, ctx.color ? ansiStyle : plainStyle);
    if (text !== '') ctx.stdout.write(`${text}\n`);
    footer(body, terms, ctx);
    return 0;
  },
};
