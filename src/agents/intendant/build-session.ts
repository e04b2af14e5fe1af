// Pass two: the rows of one session, in order, become turns. User text comes from the canonical
// lane (`conversation_message`) or, before the lane existed, from the legacy reconstruction;
// assistant text from the sidecar span the row references; runtime commands become tool calls;
// rewinds cut what followed; relationship rows nest child sessions (seed "Session Logging",
// research §1.5 and §3.1).
import { clipInput, clipOutput, messageClip, outputClip, type ClipRule } from '../../record/clip.js';
import { noteModel, noteTime } from '../../record/draft.js';
import {
  addTotals,
  emptyTotals,
  type UsageApart,
  type Detail,
  type Subagent,
  type ToolCall,
  type Totals,
  type Turn,
} from '../../record/types.js';
import { arr, num, obj, str } from '../../json/narrow.js';
import type { FileProblem } from '../types.js';
import { hash16 } from '../../fs/hash.js';
import { dataInt, dataStr, type LogRow } from './log-row.js';
import type { MessageEntry, MessageLocator } from './messages.js';
import type { SessionMeta } from './meta.js';
import type { LogRead } from './read-log.js';
import { relationshipOf, type Relationship } from './relationships.js';
import { fourDigitYears } from '../../text/epoch-iso.js';
import { isoOf, RowClock } from './row-time.js';
import { RuntimeCalls, settle } from './runtime-calls.js';
import type { SessionDir } from './session-dir.js';
import { SidecarText, type SpanKeys, type TextRead } from './sidecar-text.js';
import { callFromName, callsFromInput, runtimeResults, type DraftCall } from './tool-calls.js';
import { lastWords, TurnList, type TurnOrigin } from './turn-list.js';
import { eventTurnRows, isEventTurnRow, isUserProvenance, nestsAsSubagent } from './vocabulary.js';

/** Agent-input sidecars are a batch of commands; anything this big is not one. */
export const agentInputMaxBytes = 16 * 1024 * 1024;
/** Output chunks up to this size are read whole so protocol lines can be split by command. */
const outputRule: ClipRule = { whole: 1024 * 1024, half: outputClip.half };

export interface BuildInput {
  sessionId: string;
  files: SessionDir;
  spinePath: string;
  meta: SessionMeta;
  log: LogRead;
  /** Relationship edges known from other logs (discovery); rows in this log add to them. */
  links: readonly Relationship[];
  detail: Detail;
  /** Reads a child session into a subagent, or null when it cannot (missing, cycle, too deep). */
  loadChild(rel: Relationship): Promise<Subagent | null>;
}

export interface BuiltSession {
  turns: Turn[];
  totals: Totals;
  /** Every model response's counts with its time (the rows stand apart from the message turns). */
  usageApart: UsageApart[];
  models: string[];
  started_at: string | null;
  ended_at: string | null;
  messages: MessageEntry[];
  problems: FileProblem[];
}

/** A synthetic launch call's status from its subagent's (a running child has none yet). */
const launchStatus = { completed: 'ok', failed: 'error', stopped: 'interrupted', running: undefined } as const;

function parseFollowUp(message: string): string | undefined {
  const m = /^Round \d+ follow-up: ([\s\S]*)$/.exec(message);
  if (m === null || m[1] === undefined) return undefined;
  return m[1].replace(/ \(\d+ attachment\(s\)\)$/, '');
}

/** Whether a sidecar's batch holds exactly the commands a row names, in order. */
function sameNames(calls: readonly DraftCall[], names: readonly string[]): boolean {
  return calls.length === names.length && calls.every((c, i) => c.call.name === names[i]);
}

/** Builds the turns of one session; never throws for content, only for I/O the caller handles. */
export class SessionBuilder {
  private readonly turns = new TurnList();
  private readonly totals = emptyTotals();
  private readonly usageApart: UsageApart[] = [];
  private readonly models: string[] = [];
  private readonly span: { started_at: string | null; ended_at: string | null } = { started_at: null, ended_at: null };
  /** Least and greatest row times not yet in `span` (see `noteMs`); NaN when there are none. */
  private spanMin = Number.NaN;
  private spanMax = Number.NaN;
  private readonly clock: RowClock;
  private readonly ownIds: Set<string>;
  private readonly legacyEnd: number;
  private readonly readText: boolean;
  private readonly readOutputs: boolean;
  /** Whether a child session may nest here (so a launching call may be looked for). */
  private readonly nests: boolean;
  /**
   * Below full detail, the agent-input batches not read yet, by each of their calls: only the
   * search for a launching call needs what a sidecar adds, and it reads them as it goes.
   */
  private readonly unreadBatches = new Map<DraftCall, { ref: string; calls: DraftCall[] }>();
  private readonly sidecars: SidecarText;
  private readonly runtime = new RuntimeCalls();
  private lastStarted: string | undefined;
  private sawLegacyTask = false;
  private readonly steers = new Map<string, { text: string; line: number }>();
  private readonly children = new Set<string>();
  /** Edges from other logs that nest a child here, by time; `external[nextLink]` is nested next. */
  private readonly external: Relationship[];
  private readonly externalCount: number;
  private nextLink = 0;
  /** When the next external edge is due (Infinity: only after every row). */
  private nextLinkAt = Number.POSITIVE_INFINITY;
  /** The meta facts `finish` reads (read here: metas differ in shape, the row loop should not see them). */
  private readonly metaTask: string | undefined;
  private readonly metaInterrupted: boolean;

  constructor(private readonly input: BuildInput) {
    const { meta, log, sessionId } = input;
    this.clock = new RowClock(meta);
    this.sidecars = new SidecarText(input.files, input.spinePath);
    this.ownIds = new Set([sessionId]);
    if (meta.sessionId !== undefined) this.ownIds.add(meta.sessionId);
    // A wrapper's identity rows name the backend session its mirrored rows speak for.
    for (const id of log.facts.identities) {
      if (this.ownIds.has(id.sessionId) && id.backendSessionId !== undefined) this.ownIds.add(id.backendSessionId);
    }
    // Legacy rows count strictly before the epoch marker; without one, any canonical row means the
    // session was born in the lane era and its legacy-shaped rows are diagnostics (research §3.1).
    this.legacyEnd = log.facts.epochLine ?? (log.facts.hasLane ? 0 : Number.POSITIVE_INFINITY);
    this.readText = input.detail !== 'summary';
    this.readOutputs = input.detail === 'full';
    this.nests = input.links.some((l) => this.ownIds.has(l.parent)) || log.rows.some((r) => r.event === 'session_relationship');
    this.external = input.links.filter((l) => this.ownIds.has(l.parent)).sort((a, b) => (a.tsMs ?? Infinity) - (b.tsMs ?? Infinity));
    this.externalCount = this.external.length;
    this.nextLinkAt = this.external[0]?.tsMs ?? Number.POSITIVE_INFINITY;
    this.metaTask = meta.task;
    this.metaInterrupted = meta.status === 'interrupted';
  }

  async build(): Promise<BuiltSession> {
    // The row loop reads numbers and rows only: arrays of edges and metas come in several shapes,
    // and each new one met there threw the compiled loop away (`--trace-deopt`, cold scan).
    for (const row of this.input.log.rows) {
      const ms = this.clock.ms(row);
      while (ms !== undefined && this.nextLinkAt <= ms) await this.nestNextLink();
      this.noteMs(ms);
      // Rows are handled synchronously (sidecar reads are); only a nested session's load is awaited.
      const nesting = this.row(row, ms);
      if (nesting !== undefined) await nesting;
    }
    while (this.nextLink < this.externalCount) await this.nestNextLink();
    return this.finish();
  }

  private nestNextLink(): Promise<void> {
    const rel = this.external[this.nextLink++] as Relationship;
    this.nextLinkAt = this.external[this.nextLink]?.tsMs ?? Number.POSITIVE_INFINITY;
    return this.nest(rel, undefined, undefined);
  }

  // --- the span ---------------------------------------------------------------------------------

  /**
   * Widens the span by a row's time. Whole milliseconds from 1970 to 9999 give ISO strings that
   * order as the numbers do, so only their least and greatest are formatted, once, at a flush;
   * any other time is formatted at once, after a flush, exactly as noting each in turn would.
   */
  private noteMs(ms: number | undefined): void {
    if (ms === undefined) return;
    if (Number.isInteger(ms) && ms >= 0 && ms < fourDigitYears) {
      if (Number.isNaN(this.spanMin)) {
        this.spanMin = ms;
        this.spanMax = ms;
      } else if (ms < this.spanMin) this.spanMin = ms;
      else if (ms > this.spanMax) this.spanMax = ms;
      return;
    }
    this.flushSpan();
    noteTime(this.span, isoOf(ms) ?? undefined);
  }

  private flushSpan(): void {
    if (Number.isNaN(this.spanMin)) return;
    noteTime(this.span, isoOf(this.spanMin) ?? undefined);
    noteTime(this.span, isoOf(this.spanMax) ?? undefined);
    this.spanMin = Number.NaN;
    this.spanMax = Number.NaN;
  }

  // --- rows -------------------------------------------------------------------------------------

  private legacy(row: LogRow): boolean {
    return row.line < this.legacyEnd;
  }

  private origin(row: LogRow, ms: number | undefined): TurnOrigin {
    return { ms, turnNo: row.turn, legacy: this.legacy(row) };
  }

  /** A row mirrored from another session (a daemon or parent log's copy) is not this session's. */
  private foreign(row: LogRow): boolean {
    const sid = str(row.data, 'session_id');
    return sid !== undefined && sid !== '' && !this.ownIds.has(sid);
  }

  /** Handles one row; returns a promise only when the row nests a child session, which loads. */
  private row(row: LogRow, ms: number | undefined): Promise<void> | undefined {
    const e = row.event;
    switch (e) {
      case 'conversation_message':
        this.laneMessage(row, ms);
        return;
      case 'conversation_rewound':
        this.rewind(row, ms);
        return;
      case 'conversation_message_epoch':
        this.turns.correlate(arr(row.data, 'mapping') ?? []);
        return;
      case 'model_response':
        this.modelResponse(row, ms);
        return;
      case 'reasoning':
        this.reasoning(row, ms);
        return;
      case 'agent_started':
        this.lastStarted = row.message;
        return;
      case 'agent_input':
        this.agentInput(row, ms);
        return;
      case 'agent_output':
        this.agentOutput(row, ms);
        return;
      case 'session_relationship': {
        const rel = relationshipOf(row);
        return rel !== undefined && this.ownIds.has(rel.parent) ? this.nest(rel, row, ms) : undefined;
      }
      case 'session_started':
        if (this.legacy(row) && !this.foreign(row)) {
          const task = dataStr(row, 'task');
          if (task !== undefined && task !== '') {
            this.sawLegacyTask = true;
            this.turns.user(task, ms, { legacy: true, locator: { kind: 'native_event', line_no: row.line, content_hash16: hash16(task) } });
          }
        }
        return;
      case 'steer_requested': {
        const id = dataStr(row, 'id');
        const text = dataStr(row, 'text');
        if (this.legacy(row) && !this.foreign(row) && id !== undefined && text !== undefined) this.steers.set(id, { text, line: row.line });
        return;
      }
      case 'steer_delivered': {
        const id = dataStr(row, 'id');
        const steer = id === undefined ? undefined : this.steers.get(id);
        if (steer === undefined || !this.legacy(row) || this.foreign(row)) return;
        this.steers.delete(id as string);
        // Dated by delivery (when it entered the conversation), located on the request that holds the text.
        this.turns.user(steer.text, ms, {
          legacy: true,
          locator: { kind: 'native_event', line_no: steer.line, content_hash16: hash16(steer.text) },
        });
        return;
      }
      default:
        if (e === 'info' || e === 'debug' || e === 'warn' || e === 'error') this.general(row, ms);
        else if (isEventTurnRow(e))
          this.eventTurn(row, ms, row.message ?? eventTurnRows[e], e === 'interrupted' || e === 'safety_cap_reached');
        return;
    }
  }

  private general(row: LogRow, ms: number | undefined): void {
    const m = row.message ?? '';
    if (m.startsWith('Model: ')) {
      const model = m.slice('Model: '.length).trim();
      if (model !== '') {
        this.turns.model = model;
        noteModel(this.models, model);
      }
      return;
    }
    if (row.event === 'info' && this.legacy(row)) {
      const text = parseFollowUp(m);
      if (text !== undefined && text !== '')
        this.turns.user(text, ms, { legacy: true, locator: { kind: 'native_event', line_no: row.line, content_hash16: hash16(text) } });
    }
  }

  private laneMessage(row: LogRow, ms: number | undefined): void {
    const role = dataStr(row, 'role');
    const seq = dataInt(row, 'message_seq');
    const id = dataStr(row, 'message_id');
    if (role === 'user') {
      // Only what a person wrote: injections and tool output are logged for replay, not said.
      if (!isUserProvenance(dataStr(row, 'provenance'))) return;
      const text = dataStr(row, 'text');
      if (text === undefined) return;
      const cutKey = dataInt(row, 'ref_seq') ?? seq;
      const locator: MessageLocator =
        id !== undefined
          ? { kind: 'native_message_id', message_id: id }
          : { kind: 'native_event', line_no: row.line, content_hash16: hash16(text) };
      this.turns.user(text, ms, { legacy: false, locator, seq, cutKey });
    } else if (role === 'assistant') {
      const read = this.text(row, { file: 'file', offset: 'model_offset', bytes: 'model_bytes' }, messageClip);
      const locator: MessageLocator | undefined = id !== undefined ? { kind: 'native_message_id', message_id: id } : undefined;
      this.turns.assistant(read.text, read.whole ? hash16(read.text) : undefined, this.origin(row, ms), {
        legacy: false,
        locator,
        seq,
        cutKey: seq,
      });
    }
  }

  private modelResponse(row: LogRow, ms: number | undefined): void {
    if (this.foreign(row)) return;
    const model = dataStr(row, 'model');
    if (model !== undefined && model !== '') {
      this.turns.model = model;
      noteModel(this.models, model);
    }
    const tokens = obj(row.data, 'tokens');
    const cost = num(row.data, 'cost_usd');
    if (tokens !== undefined || cost !== undefined) {
      const used = emptyTotals();
      if (tokens !== undefined) {
        // `prompt` includes the cached part (`total` = prompt + completion): the record counts that
        // part once, as a cache read.
        const cached = num(tokens, 'cached') ?? 0;
        used.input_tokens = Math.max(0, (num(tokens, 'prompt') ?? 0) - cached);
        used.output_tokens = num(tokens, 'completion') ?? 0;
        used.cache_read_tokens = cached;
        used.cache_creation_tokens = num(tokens, 'cache_creation') ?? 0;
        used.reasoning_tokens = num(tokens, 'reasoning') ?? 0;
      }
      if (cost !== undefined) used.cost_usd = cost;
      addTotals(this.totals, used);
      // The response row is written apart from its message's turn (which a rewind may cut): kept with its own time.
      this.usageApart.push({ at: isoOf(ms), ...(this.turns.model === undefined ? {} : { model: this.turns.model }), usage: used });
    }
    // In the lane era this row is the diagnostic twin of a canonical message: tokens only.
    if (!this.legacy(row)) return;
    if (row.file === undefined && (row.message ?? '') === '') return;
    const read = this.text(row, { file: 'file', offset: 'model_offset', bytes: 'model_bytes', length: 'content_length' }, messageClip);
    const offset = dataInt(row, 'model_offset');
    const len = dataInt(row, 'model_bytes');
    const locator: MessageLocator | undefined =
      row.file !== undefined && offset !== undefined && len !== undefined && read.whole
        ? { kind: 'native_sidecar_span', file: row.file, offset, len, content_hash16: hash16(read.text) }
        : undefined;
    this.turns.assistant(read.text, read.whole ? hash16(read.text) : undefined, this.origin(row, ms), { legacy: true, locator });
  }

  private reasoning(row: LogRow, ms: number | undefined): void {
    if (this.foreign(row)) return;
    const length = dataInt(row, 'reasoning_bytes') ?? dataInt(row, 'full_content_length') ?? 0;
    const summary = row.message ?? '';
    if ((row.file === undefined || length === 0) && summary === '') return;
    // Whether there is a turn depends on the row alone, so counts match at every detail level.
    let text = summary;
    if (this.readText && row.file !== undefined && length > 0)
      text = this.sidecars.appended(row, row.file, length, messageClip)?.text ?? summary;
    this.turns.other('reasoning', text, this.origin(row, ms));
  }

  private agentInput(row: LogRow, ms: number | undefined): void {
    const names = arr(row.data, 'functions')?.filter((n): n is string => typeof n === 'string');
    let calls: DraftCall[] | undefined;
    let unread: string | undefined;
    // The sidecar is overwritten per turn: only the last row that wrote it may read it back.
    if (row.file !== undefined && this.input.log.facts.agentInputLastLine.get(row.file) === row.line) {
      // When the row names the batch, the sidecar could only confirm those names (a batch that
      // differs is not used). Below full detail a call shows its name only, and what the sidecar
      // adds (input, path, nonce) matters only to find the call that launched a nested session:
      // it is checked now, as a read would be, and read only if that search reaches its calls.
      if (names !== undefined && !this.readOutputs) {
        this.sidecars.check(row, row.file, agentInputMaxBytes);
        if (this.nests) unread = row.file;
      } else {
        const doc = this.sidecars.whole(row, row.file, agentInputMaxBytes);
        const fromFile = doc === undefined ? undefined : callsFromInput(doc);
        if (fromFile !== undefined && (names === undefined || sameNames(fromFile, names))) calls = fromFile;
      }
    }
    calls ??= (names ?? []).map(callFromName);
    if (calls.length === 0) return;
    if (unread !== undefined) {
      const batch = { ref: unread, calls };
      for (const c of calls) this.unreadBatches.set(c, batch);
    }
    this.turns.callsFor(this.origin(row, ms)).push(...calls);
    this.runtime.queue(calls);
  }

  /**
   * Gives a call's batch what its sidecar says, as an eager read would have: the same batch of
   * names only (a checked sidecar that cannot be read now was reported by the check, or keeps names).
   */
  private readBatchOf(c: DraftCall): void {
    const batch = this.unreadBatches.get(c);
    if (batch === undefined) return;
    for (const d of batch.calls) this.unreadBatches.delete(d);
    const read = this.input.files.readWhole(batch.ref, agentInputMaxBytes);
    const fromFile = read.ok ? callsFromInput(read.text) : undefined;
    if (
      fromFile === undefined ||
      !sameNames(
        fromFile,
        batch.calls.map((d) => d.call.name),
      )
    )
      return;
    fromFile.forEach((f, i) => {
      const d = batch.calls[i] as DraftCall;
      if (f.nonce !== undefined) d.nonce = f.nonce;
      if (f.call.path !== undefined) d.call.path = f.call.path;
      if (f.call.input !== undefined) {
        d.call.format = f.call.format;
        d.call.input = f.call.input;
      }
    });
  }

  private agentOutput(row: LogRow, ms: number | undefined): void {
    if (this.foreign(row)) return;
    let target = this.runtime.next();
    if (target === undefined) {
      // Output with no command batch (a wrapper's mirrored run): a call of its own.
      target = { call: { name: 'command', format: 'shell' }, fed: true };
      if (this.lastStarted !== undefined && this.lastStarted !== '') target.call.input = clipInput(this.lastStarted);
      this.turns.callsFor(this.origin(row, ms)).push(target);
    }
    const outcome = { exit: num(row.data, 'exit_code'), status: dataStr(row, 'status'), error: false };
    if (!this.readOutputs) {
      settle(target.call, outcome);
      return;
    }
    const preview = row.message === '(no output)' ? '' : (row.message ?? '');
    const stdout = this.sidecars.read(
      row,
      { file: 'file', offset: 'stdout_offset', bytes: 'stdout_bytes', length: 'stdout_length' },
      outputRule,
      preview,
    );
    const stderr = this.sidecars.read(
      row,
      { file: 'file2', offset: 'stderr_offset', bytes: 'stderr_bytes', length: 'stderr_length' },
      outputRule,
      '',
    );
    const results = stdout.clipped ? undefined : runtimeResults(stdout.text);
    if (results !== undefined) {
      this.runtime.route(target, results, outcome);
      return;
    }
    const text = [stdout.text, stderr.text].filter((t) => t !== '').join('\n');
    // A long chunk was already cut head and tail by the read; cutting again would double the marker.
    this.runtime.give(target, stdout.clipped || stderr.clipped ? text : clipOutput(text), outcome);
  }

  private async nest(rel: Relationship, row: LogRow | undefined, ms: number | undefined): Promise<void> {
    if (!nestsAsSubagent(rel.kind) || this.children.has(rel.child)) return;
    this.children.add(rel.child);
    const sub = await this.input.loadChild(rel);
    if (sub === null) return;
    // The launching call: the one the row's nonce names, else one whose input names the child.
    const launching = this.turns.findCall((c) => {
      this.readBatchOf(c);
      return rel.nonce !== undefined ? c.nonce === rel.nonce : c.call.input?.includes(rel.child) === true;
    });
    let call: ToolCall;
    if (launching !== undefined) call = launching;
    else {
      // No call names the child: the relationship row itself stands for the launch.
      call = { name: 'subagent', format: 'text', input: clipInput(sub.description ?? rel.child) };
      const status = launchStatus[sub.status ?? 'running'];
      if (status !== undefined) call.status = status;
      const origin = row === undefined ? { ms: rel.tsMs, turnNo: undefined, legacy: false } : this.origin(row, ms);
      this.turns.callsFor(origin).push({ call, fed: true });
    }
    call.subagent = sub;
    if (call.output === undefined) {
      const last = lastWords(sub.turns);
      if (last !== undefined) call.output = clipOutput(last);
    }
  }

  private eventTurn(row: LogRow, ms: number | undefined, text: string, interruption: boolean): void {
    if (interruption) this.runtime.interrupt();
    this.turns.other('event', text, this.origin(row, ms));
  }

  // --- rewinds ------------------------------------------------------------------------------------

  private rewind(row: LogRow, ms: number | undefined): void {
    const cut = dataInt(row, 'cut_after_seq');
    if (cut === undefined) return;
    this.runtime.drop(this.turns.rewind(cut));
    const kind = dataStr(row, 'kind') ?? 'rewind';
    this.turns.other(
      'event',
      row.message ?? `conversation rewound (${kind}): messages after seq ${cut} superseded`,
      { ms, turnNo: row.turn, legacy: false },
      cut,
    );
  }

  // --- sidecar text ------------------------------------------------------------------------------

  /** Sidecar text at message and full detail; the row's preview at summary, which drops text anyway. */
  private text(row: LogRow, keys: SpanKeys, rule: ClipRule): TextRead {
    const preview = row.message ?? '';
    if (!this.readText) return { text: preview, clipped: false, whole: false };
    return this.sidecars.read(row, keys, rule, preview);
  }

  // --- the end ------------------------------------------------------------------------------------

  private finish(): BuiltSession {
    const task = this.metaTask;
    // A session from before the lane whose log never named its task: the meta's task opens it.
    if (this.legacyEnd === Number.POSITIVE_INFINITY && !this.sawLegacyTask && task !== undefined) {
      this.turns.prependUser(task, this.clock.metaTime, { kind: 'native_event', line_no: 0, content_hash16: hash16(task) });
    }
    if (this.metaInterrupted && this.runtime.waiting > 0) this.runtime.interrupt();
    const f = this.input.log.facts;
    this.noteMs(f.minMs);
    this.noteMs(f.maxMs);
    this.flushSpan();
    const problems: FileProblem[] = this.sidecars.problems();
    const turns = this.turns.finish();
    return {
      turns,
      totals: this.totals,
      usageApart: this.usageApart,
      models: this.models,
      started_at: this.span.started_at,
      ended_at: this.span.ended_at,
      messages: this.turns.messages,
      problems,
    };
  }
}
