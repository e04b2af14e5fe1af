// Builds small Kimi Code session folders for tests, in the shapes the real wires have.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

export type WireRecord = Record<string, unknown>;

/** Times count in seconds from this moment. */
export const t0 = Date.parse('2026-03-01T10:00:00.000Z');
export const at = (s: number): number => t0 + s * 1000;
export const iso = (s: number): string => new Date(at(s)).toISOString();

export function prompt(text: string, s: number, origin: WireRecord = { kind: 'user' }): WireRecord {
  return { type: 'turn.prompt', input: [{ type: 'text', text }], origin, time: at(s) };
}

export interface FixtureCall {
  id: string;
  name: string;
  args: WireRecord;
  output?: string;
  isError?: boolean;
}

export interface FixtureStep {
  text?: string;
  think?: string;
  calls?: FixtureCall[];
  usage?: { inputOther: number; output: number; inputCacheRead?: number };
  model?: string;
}

/** One model call as Kimi writes it: step.begin, llm.request, parts, calls and results, step.end, usage.record. */
export function step(uuid: string, s: number, body: FixtureStep): WireRecord[] {
  const time = at(s);
  const usage = {
    inputOther: body.usage?.inputOther ?? 10,
    output: body.usage?.output ?? 5,
    inputCacheRead: body.usage?.inputCacheRead ?? 0,
    inputCacheCreation: 0,
  };
  const model = body.model ?? 'kimi-k2.7-code';
  const ev = (event: WireRecord): WireRecord => ({ type: 'context.append_loop_event', event, time });
  const out: WireRecord[] = [
    ev({ type: 'step.begin', uuid, step: 1 }),
    { type: 'llm.request', kind: 'loop', model, modelAlias: `moonshot-ai/${model}`, time },
  ];
  if (body.think !== undefined)
    out.push(ev({ type: 'content.part', uuid: `${uuid}-think`, stepUuid: uuid, part: { type: 'think', think: body.think } }));
  if (body.text !== undefined)
    out.push(ev({ type: 'content.part', uuid: `${uuid}-text`, stepUuid: uuid, part: { type: 'text', text: body.text } }));
  for (const c of body.calls ?? []) {
    out.push(ev({ type: 'tool.call', uuid: c.id, stepUuid: uuid, toolCallId: c.id, name: c.name, args: c.args }));
    if (c.output !== undefined)
      out.push(
        ev({
          type: 'tool.result',
          parentUuid: c.id,
          toolCallId: c.id,
          result: c.isError === true ? { output: c.output, isError: true } : { output: c.output },
        }),
      );
  }
  out.push(ev({ type: 'step.end', uuid, usage, finishReason: 'end_turn' }));
  out.push({ type: 'usage.record', model: `moonshot-ai/${model}`, usage, usageScope: 'turn', time });
  return out;
}

export function jsonl(records: readonly WireRecord[], tail = ''): string {
  return records.map((r) => `${JSON.stringify(r)}\n`).join('') + tail;
}

export interface FixtureSession {
  state?: WireRecord;
  wires: Record<string, WireRecord[]>;
  /** Raw text appended to a wire after its records (a torn line, a bad line). */
  tails?: Record<string, string>;
}

/** Writes `<home>/sessions/<key>/<id>/` and returns the folder. */
export async function writeSession(home: string, id: string, fixture: FixtureSession, key = 'wd_demo_0123456789ab'): Promise<string> {
  const dir = join(home, 'sessions', key, id);
  await mkdir(dir, { recursive: true });
  if (fixture.state !== undefined) await writeFile(join(dir, 'state.json'), JSON.stringify(fixture.state, null, 2));
  for (const [agent, records] of Object.entries(fixture.wires)) {
    const path = join(dir, 'agents', agent, 'wire.jsonl');
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, jsonl(records, fixture.tails?.[agent] ?? ''));
  }
  return dir;
}

export function state(workDir: string, agents: Record<string, string | null> = { main: null }): WireRecord {
  const list: Record<string, WireRecord> = {};
  for (const [id, parent] of Object.entries(agents)) list[id] = { type: id === 'main' ? 'main' : 'sub', parentAgentId: parent };
  return { createdAt: iso(0), updatedAt: iso(100), title: 'demo', agents: list, workDir, lastPrompt: 'demo' };
}
