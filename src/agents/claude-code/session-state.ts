// What one Claude Code session's transcripts share while they are read: pending tool calls by id,
// the subagent launches, task notifications, working directories and the branch.
import { text, type JsonObject } from '../../json/narrow.js';
import type { Detail, SubagentStatus, ToolCall } from '../../record/types.js';
import type { Transcript } from './transcript.js';
import { parseNotification } from './user-text.js';

/** A `Task`/`Agent` call, with what its result said about the subagent it launched. */
export interface LaunchCall {
  call: ToolCall;
  owner: Transcript;
  toolUseId: string | undefined;
  prompt: string | undefined;
  description: string | undefined;
  subagentType: string | undefined;
  at: string | null;
  /** Line number in the session's reading order, to tell launches before a sidechain from those after. */
  seq: number;
  agentId?: string;
  resultAgentType?: string;
  resultStatus?: SubagentStatus;
  /** The transcript joined to this call. */
  joined?: Transcript;
}

export interface PendingCall {
  call: ToolCall;
  launch: LaunchCall | undefined;
}

/**
 * Claude Code's words for a task's state, mapped onto the record's. `async_launched` is a background
 * launch's receipt: the agent is running until a notification says otherwise.
 */
export function subagentStatusOf(word: string | undefined): SubagentStatus | undefined {
  switch (word?.toLowerCase()) {
    case 'completed':
    case 'complete':
    case 'success':
    case 'succeeded':
      return 'completed';
    case 'failed':
    case 'error':
      return 'failed';
    case 'killed':
    case 'stopped':
    case 'cancelled':
    case 'canceled':
    case 'aborted':
    case 'interrupted':
      return 'stopped';
    case 'running':
    case 'async_launched':
    case 'started':
    case 'pending':
      return 'running';
    default:
      return undefined;
  }
}

function isAbsolutePath(p: string): boolean {
  // POSIX, or a Windows drive path; fixtures write placeholders such as "[trimmed for fixture]".
  return p.charCodeAt(0) === 47 || (p.length > 2 && p.charCodeAt(1) === 58 && (p.charCodeAt(2) === 92 || p.charCodeAt(2) === 47));
}

export class SessionState {
  readonly full: boolean;
  readonly keepMessages: boolean;
  readonly pending = new Map<string, PendingCall>();
  readonly launches: LaunchCall[] = [];
  readonly launchById = new Map<string, LaunchCall>();
  readonly launchByAgentId = new Map<string, LaunchCall>();
  private readonly statusByToolUseId = new Map<string, string>();
  private readonly statusByTaskId = new Map<string, string>();
  readonly cwds: string[] = [];
  private readonly cwdSet = new Set<string>();
  branch: string | null = null;
  /** Lines fed so far, across every file of the session. */
  seq = 0;
  /** A user or assistant message was seen: the files hold a session. */
  sawSession = false;

  constructor(detail: Detail) {
    this.full = detail === 'full';
    this.keepMessages = detail !== 'summary';
  }

  /** Notes the working directory and branch a line names. */
  noteEnv(o: JsonObject): void {
    const cwd = o.cwd;
    if (typeof cwd === 'string' && cwd !== '' && !this.cwdSet.has(cwd) && isAbsolutePath(cwd)) {
      this.cwdSet.add(cwd);
      this.cwds.push(cwd);
    }
    if (this.branch === null) {
      const b = o.gitBranch;
      if (typeof b === 'string' && b !== '') this.branch = b;
    }
  }

  addLaunch(launch: LaunchCall): void {
    this.launches.push(launch);
    if (launch.toolUseId !== undefined && !this.launchById.has(launch.toolUseId)) this.launchById.set(launch.toolUseId, launch);
  }

  /** Records what a launch's result said (`toolUseResult.agentId`, `agentType`, `status`). */
  noteLaunchResult(launch: LaunchCall, toolUseResult: JsonObject | undefined, fallback: SubagentStatus): void {
    const agentId = text(toolUseResult, 'agentId');
    if (agentId !== undefined) {
      launch.agentId = agentId;
      if (!this.launchByAgentId.has(agentId)) this.launchByAgentId.set(agentId, launch);
    }
    const agentType = text(toolUseResult, 'agentType');
    if (agentType !== undefined) launch.resultAgentType = agentType;
    launch.resultStatus = subagentStatusOf(text(toolUseResult, 'status')) ?? fallback;
  }

  /** Keeps the last status each `<task-notification>` gave a task (by tool-use id and by task id). */
  noteNotifications(bodies: readonly string[]): void {
    for (const body of bodies) {
      const n = parseNotification(body);
      if (n.status === undefined) continue;
      if (n.toolUseId !== undefined) this.statusByToolUseId.set(n.toolUseId, n.status);
      if (n.taskId !== undefined) this.statusByTaskId.set(n.taskId, n.status);
    }
  }

  /** The status the last task notification gave a subagent, if any. */
  notifiedStatus(toolUseId: string | undefined, agentId: string | undefined): SubagentStatus | undefined {
    const word =
      (toolUseId === undefined ? undefined : this.statusByToolUseId.get(toolUseId)) ??
      (agentId === undefined ? undefined : this.statusByTaskId.get(agentId));
    return subagentStatusOf(word);
  }
}
