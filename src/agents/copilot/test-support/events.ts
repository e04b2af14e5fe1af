// Builds small Copilot CLI session logs for tests, in the shape the CLI persists them: one event a
// line, `{type, data, id, timestamp, parentId}` chained by `parentId`, sub-agent events tagged with
// `agentId`; ephemeral events (deltas, `assistant.usage`) are never written, so never built here.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export type CopilotLine = Record<string, unknown>;

export const t0 = Date.parse('2026-06-03T08:00:00.000Z');
export const iso = (s: number): string => new Date(t0 + s * 1000).toISOString();

export class Events {
  readonly lines: CopilotLine[] = [];
  private last: string | null = null;
  private n = 0;

  constructor(readonly sessionId: string) {}

  add(type: string, s: number, data: CopilotLine, agentId?: string): this {
    const id = `${this.sessionId.slice(0, 8)}-e${++this.n}`;
    this.lines.push({ type, data, id, timestamp: iso(s), parentId: this.last, ...(agentId === undefined ? {} : { agentId }) });
    this.last = id;
    return this;
  }

  start(s: number, cwd = '/work/app', version = '0.0.410'): this {
    return this.add('session.start', s, {
      sessionId: this.sessionId,
      version: 1,
      producer: 'copilot-agent',
      copilotVersion: version,
      startTime: iso(s),
      selectedModel: 'claude-sonnet-4.5',
      context: { cwd, gitRoot: cwd, branch: 'main', repository: 'acme/app' },
    });
  }

  user(s: number, content: string, extra: CopilotLine = {}, agentId?: string): this {
    return this.add(
      'user.message',
      s,
      {
        content,
        transformedContent: `<current_datetime>${iso(s)}</current_datetime>\n\n${content}`,
        attachments: [],
        interactionId: 'i1',
        ...extra,
      },
      agentId,
    );
  }

  assistant(s: number, content: string, requests: { id: string; name: string; args: CopilotLine }[] = [], agentId?: string): this {
    return this.add(
      'assistant.message',
      s,
      {
        messageId: `m${this.n}`,
        content,
        toolRequests: requests.map((r) => ({ toolCallId: r.id, name: r.name, arguments: r.args, type: 'function' })),
        interactionId: 'i1',
      },
      agentId,
    );
  }

  toolDone(s: number, id: string, name: string, content: string, success = true, agentId?: string): this {
    this.add('tool.execution_start', s, { toolCallId: id, toolName: name, arguments: {} }, agentId);
    return this.add(
      'tool.execution_complete',
      s,
      success
        ? { toolCallId: id, success, result: { content, detailedContent: content } }
        : { toolCallId: id, success, error: { message: content, code: 'failure' } },
      agentId,
    );
  }

  shutdown(
    s: number,
    metrics: Record<string, { input: number; output: number; cacheRead: number; cacheWrite: number; reasoning?: number }>,
  ): this {
    const modelMetrics: Record<string, unknown> = {};
    for (const [model, m] of Object.entries(metrics))
      modelMetrics[model] = {
        requests: { count: 3, cost: 1 },
        usage: {
          inputTokens: m.input,
          outputTokens: m.output,
          cacheReadTokens: m.cacheRead,
          cacheWriteTokens: m.cacheWrite,
          reasoningTokens: m.reasoning ?? 0,
        },
      };
    return this.add('session.shutdown', s, {
      shutdownType: 'routine',
      totalPremiumRequests: 3,
      totalApiDurationMs: 12000,
      sessionStartTime: t0,
      codeChanges: { linesAdded: 1, linesRemoved: 0, filesModified: [] },
      modelMetrics,
      currentModel: Object.keys(metrics)[0],
    });
  }

  text(): string {
    return this.lines.map((l) => `${JSON.stringify(l)}\n`).join('');
  }
}

/** Writes `<home>/session-state/<id>/events.jsonl` (and its `workspace.yaml`) and returns the events path. */
export async function writeSession(home: string, events: Events, cwd = '/work/app'): Promise<string> {
  const dir = join(home, 'session-state', events.sessionId);
  await mkdir(dir, { recursive: true });
  await writeFile(
    join(dir, 'workspace.yaml'),
    `id: ${events.sessionId}\ncwd: ${cwd}\ngit_root: ${cwd}\nrepository: acme/app\nbranch: main\nsummary: Parser fix\nsummary_count: 1\ncreated_at: ${iso(0)}\nupdated_at: ${iso(1)}\n`,
  );
  const path = join(dir, 'events.jsonl');
  await writeFile(path, events.text());
  return path;
}
