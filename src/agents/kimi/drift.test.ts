import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asObject } from '../../json/narrow.js';
import { agentTurns } from './turns.js';
import { WireFold } from './wire-fold.js';
import { wireLine } from './wire-line.js';

const types = [
  'turn.prompt',
  'turn.steer',
  'turn.cancel',
  'context.append_message',
  'context.append_loop_event',
  'usage.record',
  'llm.request',
  'config.update',
  'context.undo',
  'context.clear',
  'context.apply_compaction',
  'subagent.spawned',
  'future.kind',
];
const eventTypes = ['step.begin', 'step.end', 'content.part', 'tool.call', 'tool.result', 'other'];

/** Lines with known types but any field shapes: what a drifting writer might produce. */
const driftLine = fc.record({
  type: fc.constantFrom(...types),
  time: fc.oneof(fc.integer(), fc.double(), fc.string(), fc.constant(null)),
  event: fc.oneof(
    fc.jsonValue(),
    fc.record({
      type: fc.constantFrom(...eventTypes),
      uuid: fc.oneof(fc.string(), fc.integer()),
      stepUuid: fc.string(),
      toolCallId: fc.string(),
      name: fc.string(),
      part: fc.jsonValue(),
      result: fc.jsonValue(),
      usage: fc.jsonValue(),
      args: fc.jsonValue(),
    }),
  ),
  input: fc.jsonValue(),
  origin: fc.jsonValue(),
  message: fc.jsonValue(),
  count: fc.oneof(fc.integer(), fc.double(), fc.string()),
  usage: fc.jsonValue(),
  model: fc.jsonValue(),
});

describe('Kimi wire drift', () => {
  it('never throws whatever shape known record types take', () => {
    fc.assert(
      fc.property(fc.array(driftLine, { maxLength: 40 }), (lines) => {
        const fold = new WireFold('main');
        for (const [i, l] of lines.entries()) fold.apply(wireLine(asObject(JSON.parse(JSON.stringify(l))) ?? {}), i + 1);
        const log = fold.finish();
        expect(() => agentTurns(log, true)).not.toThrow();
      }),
      { numRuns: 300 },
    );
  });
});
