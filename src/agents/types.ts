// The one interface every agent folder implements: find its homes, discover sessions cheaply,
// parse one session into the record, and declare the session's custody tree.
import type { AgentId, Detail, SessionRecord } from '../record/types.js';
import type { MessageExtract, MessageResume } from '../record/message-index.js';
import type { JsonObject } from '../json/narrow.js';
import type { DiscoveryFs } from '../fs/dir-listing.js';

export type { DiscoveryFs } from '../fs/dir-listing.js';

/** How the CLI edge hands the environment down: agents never read `process.env` themselves. */
export interface HomeLookup {
  env(name: string): string | undefined;
  /** The user's home directory. */
  homedir: string;
  /**
   * Directories other agents' sessions ran in, newest first, as agentlog's scans last saw them: the
   * homes of an agent that keeps its sessions inside the projects themselves (Aider).
   */
  projects?: readonly string[];
}

export interface SessionFile {
  path: string;
  size: number;
  mtimeMs: number;
}

/** A session found by discovery: paths, sizes and mtimes only, no full parse. */
export interface DiscoveredSession {
  agent: AgentId;
  sessionId: string;
  /** The agent home (installation root) the session was found under. */
  home: string;
  /** What `show` accepts for it: the main file, or the folder for agents that keep one per session. */
  path: string;
  /** Every file the record is read from, the main one first. */
  files: SessionFile[];
  /** The working directory when discovery learns it cheaply (never by decoding a folder name). */
  cwd?: string;
}

export const problemKinds = ['unreadable', 'unparsed', 'oversized'] as const;
export type ProblemKind = (typeof problemKinds)[number];

/** A file that could not be read (`unreadable`), held no session (`unparsed`) or broke a bound. */
export interface FileProblem {
  path: string;
  kind: ProblemKind;
  reason: string;
}

export interface Discovery {
  sessions: DiscoveredSession[];
  problems: FileProblem[];
}

export interface ParseContext {
  /** The level the caller will finalise at: a reader may skip building what that level drops. */
  detail: Detail;
  /**
   * A tail view: read the main transcript from this byte offset (a line start) and only what the
   * lines after it launched, so the newest turns of a huge session cost a read of its end (the
   * dashboard's first page). A reader that cannot start mid-file ignores it and reads everything.
   */
  mainFrom?: number;
}

export interface ParsedSession {
  /**
   * The record at full detail with clips applied, not yet finalised (no elision, every assistant
   * turn may carry its model). Null when the files held no session: the caller reports `unparsed`.
   */
  record: SessionRecord | null;
  /** Every working directory the session (and its subagents) ran in, first-seen order, not elided. */
  cwds: string[];
  /** Lines that could not be parsed, per file (only files with at least one). */
  badLines: { path: string; count: number }[];
  /** Files of this session that could not be read or broke a bound. */
  problems: FileProblem[];
  /** Lines over the reader's bound that were read clipped (kept, not bad), per file with any. */
  clippedLines?: { path: string; count: number }[];
  /** Every non-blank line of each file, counted once by what it was (readers that count lines). */
  lineTally?: LineTally[];
  /** Set when the reader honoured `ParseContext.mainFrom`: the record holds only that tail. */
  readFrom?: number;
}

/**
 * What each line of a file was: a record read into the session, a known line that is machinery, an
 * object of an unknown type (kept raw by custody, read by nothing), valid JSON that is not a record
 * (`42`, `[1]`), or not JSON at all. `badLines` counts the last two.
 */
export interface LineTally {
  path: string;
  parsed: number;
  machinery: number;
  unknown: number;
  notRecord: number;
  unparseable: number;
  clipped: number;
}

/** One file of a session's custody tree, named relative to the agent home so a kept copy mirrors it. */
export type TreeEntry =
  | { relPath: string; kind: 'file'; path: string }
  /** Sessions that live in a database are kept as an export the same reader can read back. */
  | { relPath: string; kind: 'export'; produce: () => Promise<Buffer> };

/** An environment variable an agent reads its home from, and the value the agent assumes when it is unset. */
export interface HomeVariable {
  readonly name: string;
  /** The value when unset, `~` standing for the user's home: `homes` answers the same either way. */
  readonly default: string;
  /** The agent's folder inside the variable's path, when the variable names a parent (`.gemini`). */
  readonly folder?: string;
}

/** A name an agent keeps for a session in its own files (instead of agentlog's names overlay). */
export interface OwnSessionNames {
  /** The session's name, or null (none, or unreadable: a listing never fails for a name). */
  read(sessionPath: string): Promise<string | null>;
  /** Stores the name; answers the file written and the name as stored (normalised). */
  write(sessionPath: string, name: string): Promise<{ path: string; name: string }>;
}

export interface AgentReader {
  readonly id: AgentId;
  /** How a person names the agent ("Claude Code"). */
  readonly displayName: string;
  /**
   * Other spellings a person types for the agent (`--agent`, the names overlay's sources), besides
   * the id and the display name; each is also accepted with spaces, dashes, underscores or none.
   */
  readonly aliases: readonly string[];
  /** The variables `homes` reads, in the order it reads them (the CLI's help lists them). */
  readonly homeVariables: readonly HomeVariable[];
  /** The homes to look in, from the agent's own variables and defaults (existing or not). */
  homes(lookup: HomeLookup): string[];
  /**
   * Lists the sessions under one home. A missing home is an empty discovery, not an error. `fs`
   * answers folder listings and file-derived facts (a cache that remembers them across runs, or
   * the disk itself when absent); a reader that lists or peeks through it gets the cache for free.
   */
  discover(home: string, fs?: DiscoveryFs): Promise<Discovery>;
  /** Recognises a file or folder given on the command line as one of this agent's sessions. */
  claim(path: string): Promise<DiscoveredSession | null>;
  /** Reads one session's files into the record. Never throws for bad content; throws only for I/O. */
  parse(session: DiscoveredSession, ctx: ParseContext): Promise<ParsedSession>;
  /** The files a keep copies for this session. */
  tree(session: DiscoveredSession): Promise<TreeEntry[]>;
  /** Shortcuts custody uses to find a session and its sub-agents (optional: custody falls back to `discover`). */
  custody?: CustodyHooks;
  /** What was said in a session, for the message index. */
  messages: MessageExtractor;
  /**
   * The working directory a session's first lines name, for custody facts when discovery did not
   * learn it; absent when the agent's files never say it cheaply. Null when they do not; never throws.
   * `candidates` are directories the caller suspects (sync: the allowed paths and the projects scans
   * saw): an agent whose header names the directory only by a digest (Gemini's project hash) answers
   * the candidate, or ancestor of one, that the digest names.
   */
  cwd?(session: DiscoveredSession, candidates?: readonly string[]): Promise<string | null>;
  /** Set when the agent keeps session names itself; every other agent's names live in the overlay. */
  names?: OwnSessionNames;
  /**
   * What `tail` shows for one line of the session's JSONL transcript, read as `show` reads it: its
   * time (ISO-8601), who speaks, and its text. Optional: without it, custody's generic reading of
   * common field names is used.
   */
  entryView?(line: JsonObject): EntryView;
}

/** One transcript line as `tail` shows it. */
export interface EntryView {
  /** ISO-8601, or null when the line carries no time. */
  timestamp: string | null;
  role: string | null;
  /** The line's readable text (a prompt, a reply, a command and its tool), not yet cut to one line. */
  text: string;
}

/** A reader with the homes it looks in (the CLI edge resolves them from the environment). */
export interface AgentHomes {
  reader: AgentReader;
  homes: string[];
  /**
   * Those of `homes` that are agentlog's own kept copies: custody never writes through a link there,
   * so a file reached through one (planted after the keep) is refused when read, never followed.
   */
  linkFree?: string[];
}

/** An agent's message extraction for the search index (seed 000 "The extractors"). */
export interface MessageExtractor {
  /** Bumped whenever the output changes: the index rebuilds sessions extracted by another version. */
  readonly version: number;
  /**
   * Set when the records' locators are native (`native_*`: a session in agentlog's own session-log
   * format); every other extractor mints external ones, and a locator of the other family is not its.
   */
  readonly nativeLocators?: true;
  /**
   * Reads a session's user and assistant prose. With `from`, resumes after the files' consumed
   * offsets and returns only the new records; never throws for bad content.
   */
  extract(session: DiscoveredSession, from: MessageResume | null): Promise<MessageExtract>;
}

/** A sub-agent's own transcript within a session, and what links it to the call that launched it. */
export interface Sidechain {
  /** The sub-agent's id (Claude Code: `<id>` of `agent-<id>.jsonl`). */
  agentId: string;
  /** The launching tool call's id, when the agent records it (Claude Code: `toolUseId` in `.meta.json`). */
  toolUseId: string | null;
  agentType: string | null;
  description: string | null;
  path: string;
}

/** Optional custody shortcuts an agent folder may offer (seed 001 "Locate"). */
export interface CustodyHooks {
  /**
   * Where a session's main file would be under `home`: with `cwd`, only where that working
   * directory's sessions live (by encoding the cwd, never by decoding a folder name); without it,
   * every candidate (e.g. one per project folder). Throws when a folder cannot be read, so an
   * unreadable tree is never taken for a pruned one.
   */
  sessionPaths?(home: string, sessionId: string, cwd?: string): Promise<string[]>;
  /** The session's sub-agent transcripts, in a stable order. */
  sidechains?(session: DiscoveredSession): Promise<Sidechain[]>;
}
