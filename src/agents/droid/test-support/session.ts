// Builds small Factory Droid sessions for tests, in the shape Droid writes them: a `session_start`
// line, then `message` lines with Anthropic-style content blocks, and a sibling settings file.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export type DroidLine = Record<string, unknown>;

export const t0 = Date.parse('2026-07-04T09:00:00.000Z');
export const iso = (s: number): string => new Date(t0 + s * 1000).toISOString();

export class Session {
  readonly lines: DroidLine[] = [];
  private last: string | null = null;

  constructor(
    readonly id: string,
    readonly cwd = '/work/app',
    start: DroidLine = {},
  ) {
    this.lines.push({ type: 'session_start', id, title: 'Parser fix', owner: 'dev', version: 2, cwd, ...start });
  }

  message(id: string, s: number, role: string, content: DroidLine[], extra: DroidLine = {}): this {
    this.lines.push({
      type: 'message',
      id,
      timestamp: iso(s),
      ...(this.last === null ? {} : { parentId: this.last }),
      message: { role, content, ...extra },
    });
    this.last = id;
    return this;
  }

  user(id: string, s: number, text: string): this {
    return this.message(id, s, 'user', [{ type: 'text', text }]);
  }

  assistant(id: string, s: number, content: DroidLine[], model = 'claude-sonnet-4-5-20250929'): this {
    return this.message(id, s, 'assistant', content, { model });
  }

  results(id: string, s: number, results: { id: string; content: string; isError?: boolean }[]): this {
    return this.message(
      id,
      s,
      'user',
      results.map((r) => ({
        type: 'tool_result',
        tool_use_id: r.id,
        content: r.content,
        ...(r.isError === true ? { is_error: true } : {}),
      })),
    );
  }

  text(): string {
    return this.lines.map((l) => `${JSON.stringify(l)}\n`).join('');
  }
}

export const say = (text: string): DroidLine => ({ type: 'text', text });
export const think = (thinking: string): DroidLine => ({ type: 'thinking', thinking, signature: 'sig' });
export const use = (id: string, name: string, input: DroidLine): DroidLine => ({ type: 'tool_use', id, name, input });

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cacheCreationTokens: number;
  cacheReadTokens: number;
  thinkingTokens: number;
}

/** The project folder Droid names for a working directory. */
export function projectDir(home: string, cwd = '/work/app'): string {
  return join(home, 'sessions', `-${cwd.replace(/^\/+/, '').replace(/\/+/g, '-')}`);
}

/** Writes `<home>/sessions/-<cwd>/<id>.jsonl` and its settings file; returns the session path. */
export async function writeSession(home: string, session: Session, usage?: Usage, dir = projectDir(home, session.cwd)): Promise<string> {
  await mkdir(dir, { recursive: true });
  const path = join(dir, `${session.id}.jsonl`);
  await writeFile(path, session.text());
  const settings = {
    model: 'claude-sonnet-4-5-20250929',
    providerLock: 'anthropic',
    providerLockTimestamp: iso(0),
    assistantActiveTimeMs: 1200,
    ...(usage === undefined ? {} : { tokenUsage: usage }),
  };
  await writeFile(join(dir, `${session.id}.settings.json`), JSON.stringify(settings, null, 2));
  return path;
}
