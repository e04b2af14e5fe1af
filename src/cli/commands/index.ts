// The command registry: every command's name, help and flags, and the module that runs it. A
// command's module (and everything it needs) is imported only when it runs, so `--version`,
// `--help` and a flag error load none of them.
import { commonFlags } from '../args.js';
import type { Command } from '../command.js';
import { dbFlag } from '../hub-db.js';
import { queryLimits } from '../../search/query-parse.js';
import { defaultIntervalMs } from '../../search/index-interval.js';
import { agentIds } from '../../record/types.js';

type Run = NonNullable<Command['run']>;

/** A run function that imports its command's module on the first call. */
function lazy(load: () => Promise<{ run: Run }>): Run {
  return async (args, ctx) => (await load()).run(args, ctx);
}

/** The `--agent` flag's help, listing every agent (the closed vocabulary the reader registry follows, in its order). */
const agentFlagHelp = `only these agents (${agentIds.join(', ')})`;

/** Entries `tail` prints when -n is not given. */
export const defaultTailLines = 10;

const hubCommand: Command = {
  name: 'hub',
  summary: 'the team hub: a sources ledger, notes and search for several people, on SQLite or PostgreSQL',
  usage: 'hub <serve | user add | token revoke> [options]',
  flags: [...commonFlags],
  subcommands: [
    {
      name: 'serve',
      summary: 'migrate the hub database and serve the hub until stopped',
      usage: 'hub serve [--db URL] [--listen 127.0.0.1:7421] [--trust-proxy]',
      flags: [
        dbFlag,
        { name: 'listen', value: 'host:port', help: 'the address to bind (default 127.0.0.1:7421; port 0 picks a free one)' },
        { name: 'trust-proxy', help: 'believe X-Forwarded-Proto from a TLS proxy in front (marks the sign-in cookie Secure)' },
        ...commonFlags,
      ],
      run: lazy(() => import('./hub-serve.js')),
    },
    {
      name: 'user',
      summary: 'manage hub users',
      usage: 'hub user add <name> --workspace <W> [--db URL] [--json]',
      flags: [...commonFlags],
      subcommands: [
        {
          name: 'add',
          summary: 'create a hub user (and the workspace when new) and print their token once',
          usage: 'hub user add <name> --workspace <W> [--db URL] [--json]',
          flags: [{ name: 'workspace', value: 'W', help: 'the workspace the user belongs to (created when new)' }, dbFlag, ...commonFlags],
          run: lazy(() => import('./hub-user.js')),
        },
      ],
    },
    {
      name: 'token',
      summary: 'manage hub tokens',
      usage: 'hub token revoke <name> [--db URL] [--json]',
      flags: [...commonFlags],
      subcommands: [
        {
          name: 'revoke',
          summary: 'revoke every token of a hub user',
          usage: 'hub token revoke <name> [--db URL] [--json]',
          flags: [dbFlag, ...commonFlags],
          run: lazy(() => import('./hub-token.js')),
        },
      ],
    },
  ],
};

export const commands: readonly Command[] = [
  {
    name: 'scan',
    summary: 'list every session the agents left, newest first',
    usage: 'scan [--agent A[,B]] [--json]',
    flags: [{ name: 'agent', value: 'agents', repeat: true, help: agentFlagHelp }, ...commonFlags],
    run: lazy(() => import('./scan.js')),
  },
  {
    name: 'show',
    summary: 'print one session: readable, --json (the record) or --markdown',
    usage: 'show <file-or-session-id> [--detail full|messages|summary] [--json | --markdown | --html | --as-sent [--json]]',
    flags: [
      { name: 'detail', value: 'level', help: 'full (default), messages or summary' },
      { name: 'markdown', help: 'print the session as Markdown' },
      { name: 'html', help: 'print the session as one self-contained HTML file (the dashboard export)' },
      { name: 'agent', value: 'agents', repeat: true, help: "look only in these agents' homes" },
      { name: 'as-sent', help: 'the exact redacted, capped body (and note) sync would send for it' },
      ...commonFlags,
    ],
    run: lazy(() => import('./show.js')),
  },
  {
    name: 'keep',
    summary: 'copy sessions into custody before the agents prune them (no id: every session)',
    usage: 'keep [--all | <session-id>...] [--verify] [--agent A] [--installation NAME] [--json]',
    flags: [
      { name: 'all', help: 'keep every session of every agent home (what `keep` with no id does)' },
      {
        name: 'verify',
        help: 'compare every kept file with its source by content, not by size and time (slower; catches a same-size rewrite whose time was put back)',
      },
      { name: 'agent', value: 'agents', repeat: true, help: agentFlagHelp },
      { name: 'installation', value: 'name', help: 'the name to keep this agent home under (default: derived from the home path)' },
      ...commonFlags,
    ],
    run: lazy(() => import('./keep.js')),
  },
  {
    name: 'tail',
    summary: 'print the newest entries of a session (vendor tree or kept copy); --follow for new ones',
    usage: 'tail <file-or-session-id> [-n N] [--follow] [--agent A] [--json]',
    flags: [
      { name: 'lines', short: 'n', value: 'N', help: `how many entries (1-10000, default ${defaultTailLines})` },
      { name: 'follow', short: 'f', help: 'keep printing entries as the session is written (Ctrl-C stops)' },
      { name: 'agent', value: 'agents', repeat: true, help: "look only in these agents' homes" },
      ...commonFlags,
    ],
    run: lazy(() => import('./tail.js')),
  },
  {
    name: 'rename',
    summary: 'give a session a name that scan and show display',
    usage: 'rename <session-id-or-prefix> <name> [--agent A] [--json]',
    flags: [{ name: 'agent', value: 'agent', help: "look only in this agent's homes (when an id prefix is shared)" }, ...commonFlags],
    run: lazy(() => import('./rename.js')),
  },
  {
    name: 'index',
    summary: 'update the message-search index (--watch keeps it fresh until interrupted)',
    usage: 'index [--watch] [--interval S] [--window-days D] [--json]',
    flags: [
      { name: 'watch', short: 'w', help: 'keep sweeping (every --interval seconds and on file changes) until Ctrl-C' },
      { name: 'interval', value: 'S', help: `seconds between sweeps with --watch (default ${defaultIntervalMs / 1000})` },
      { name: 'window-days', value: 'D', help: "index the last D days (default: the index's own, 14 for a new one; 0 = all history)" },
      ...commonFlags,
    ],
    run: lazy(() => import('./index-cmd.js')),
  },
  {
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
    run: lazy(() => import('./search.js')),
  },
  {
    name: 'serve',
    summary: 'serve the dashboard and API on 127.0.0.1, keeping and indexing sessions as they change',
    usage: 'serve [--port 7420] [--host 127.0.0.1] [--open] [--no-sweep] [--interval S]',
    flags: [
      { name: 'port', value: 'N', help: 'the port (default 7420; 0 picks a free one)' },
      { name: 'host', value: 'address', help: 'the address to bind (default 127.0.0.1; anything else exposes your sessions)' },
      { name: 'open', help: 'open the dashboard in the browser' },
      { name: 'no-sweep', help: 'do not keep or index (serve what is there)' },
      {
        name: 'interval',
        value: 'S',
        help: 'seconds between sweeps where file watching fails (default 30; with watching, a safety sweep every 10 intervals)',
      },
      ...commonFlags,
    ],
    run: lazy(() => import('./serve.js')),
  },
  {
    name: 'usage',
    summary: 'tokens and estimated cost per day, month, session or model, every agent',
    usage:
      'usage [daily|monthly|session|model] [--agent A[,B]] [--since YYYY-MM-DD] [--until YYYY-MM-DD] [--by-agent] [--timezone TZ] [--json]',
    flags: [
      {
        name: 'agent',
        value: 'agents',
        repeat: true,
        help: agentFlagHelp,
      },
      { name: 'since', value: 'YYYY-MM-DD', help: 'from this local day on (inclusive)' },
      { name: 'until', value: 'YYYY-MM-DD', help: 'up to this local day (inclusive)' },
      { name: 'by-agent', help: 'one row per period and agent' },
      { name: 'timezone', value: 'TZ', help: 'the time zone whose days count (default: TZ, else the system zone)' },
      ...commonFlags,
    ],
    run: lazy(() => import('./usage.js')),
  },
  {
    name: 'mcp',
    summary: 'serve past sessions to coding agents over the Model Context Protocol (stdio)',
    usage: 'mcp [--timezone TZ]',
    flags: [
      { name: 'timezone', value: 'TZ', help: 'the zone session_usage counts days in (default: TZ, else the system zone)' },
      ...commonFlags,
    ],
    run: lazy(() => import('./mcp.js')),
  },
  {
    name: 'allow',
    summary: "opt a repository in to sync (its sessions and every subagent's must run inside it)",
    usage: 'allow [path] [--detail full|messages|summary] [--json]',
    flags: [
      { name: 'detail', value: 'level', help: 'what is sent: full (default), messages (no tool input or output) or summary' },
      ...commonFlags,
    ],
    run: lazy(() => import('./allow.js')),
  },
  {
    name: 'deny',
    summary: 'take a repository out of sync',
    usage: 'deny [path] [--json]',
    flags: [...commonFlags],
    run: lazy(() => import('./deny.js')),
  },
  {
    name: 'status',
    summary: 'what sync may send: allowed paths and levels, sessions covered, hub, last sync',
    usage: 'status [--json]',
    flags: [...commonFlags],
    run: lazy(() => import('./status.js')),
  },
  {
    name: 'login',
    summary: 'sign in to a team hub for sync (the token on stdin)',
    usage: 'login --hub URL [--token-stdin] [--json]',
    flags: [
      { name: 'hub', value: 'url', help: "the hub's address" },
      { name: 'token-stdin', help: 'read the token from stdin (the default when stdin is not a terminal)' },
      ...commonFlags,
    ],
    run: lazy(() => import('./login.js')),
  },
  {
    name: 'sync',
    summary: 'send the opted-in sessions, redacted and capped, to the team hub (with a note each)',
    usage: 'sync [--dry-run] [--agent A] [--json]',
    flags: [
      { name: 'dry-run', help: 'send nothing; print what would be sent' },
      { name: 'agent', value: 'agents', repeat: true, help: agentFlagHelp },
      ...commonFlags,
    ],
    run: lazy(() => import('./sync.js')),
  },
  hubCommand,
];
