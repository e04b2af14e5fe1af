import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asObject } from '../../json/narrow.js';
import { splitBranches } from './branch.js';
import { entryOf } from './entry.js';
import { piMessages } from './messages.js';
import { branchTurns } from './turns.js';

const ids = ['a', 'b', 'c', 'd'];

/** Entries with known types and tree links but any field shapes, cycles and dangling parents included. */
const driftEntry = fc.record({
  type: fc.constantFrom('message', 'compaction', 'branch_summary', 'model_change', 'custom', 'future'),
  id: fc.oneof(fc.constantFrom(...ids), fc.constant(undefined), fc.integer()),
  parentId: fc.oneof(fc.constantFrom(...ids), fc.constant(null), fc.string()),
  timestamp: fc.oneof(fc.string(), fc.integer(), fc.double()),
  summary: fc.jsonValue(),
  message: fc.oneof(
    fc.jsonValue(),
    fc.record({
      role: fc.constantFrom('user', 'assistant', 'toolResult', 'bashExecution'),
      content: fc.oneof(
        fc.string(),
        fc.array(
          fc.record({
            type: fc.constantFrom('text', 'thinking', 'toolCall', 'image'),
            text: fc.jsonValue(),
            thinking: fc.jsonValue(),
            id: fc.jsonValue(),
            name: fc.jsonValue(),
            arguments: fc.jsonValue(),
          }),
        ),
      ),
      usage: fc.jsonValue(),
      toolCallId: fc.jsonValue(),
      stopReason: fc.jsonValue(),
      model: fc.jsonValue(),
    }),
  ),
});

describe('Pi entry drift', () => {
  it('never throws, and every entry lands on exactly one side of the split', () => {
    fc.assert(
      fc.property(fc.array(driftEntry, { maxLength: 30 }), (raw) => {
        const entries = raw.map((e, i) => entryOf(asObject(JSON.parse(JSON.stringify(e))) ?? {}, i + 1));
        const { active, abandoned } = splitBranches(entries);
        expect(active.length + abandoned.length).toBe(entries.length);
        expect(() => branchTurns(active)).not.toThrow();
        expect(() => [...piMessages(entries)]).not.toThrow();
      }),
      { numRuns: 300 },
    );
  });
});
