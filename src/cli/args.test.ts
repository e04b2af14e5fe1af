import { describe, expect, it } from 'vitest';
import { jsonRequested, parseArgs, UsageError } from './args.js';

const specs = [
  { name: 'json', help: '' },
  { name: 'limit', short: 'n', value: 'N', help: '' },
  { name: 'agent', value: 'A', repeat: true, help: '' },
];

describe('parseArgs', () => {
  it('reads flags in every form and keeps positionals in order', () => {
    const a = parseArgs(['x', '--json', '-n', '5', '--agent=codex', '--agent', 'pi', 'y'], specs, 't');
    expect(a.positionals).toEqual(['x', 'y']);
    expect(a.flags.get('limit')).toEqual(['5']);
    expect(a.flags.get('agent')).toEqual(['codex', 'pi']);
    expect(parseArgs(['-n50'], specs, 't').flags.get('limit')).toEqual(['50']);
  });

  it('gives a value flag the next word even when it starts with a dash', () => {
    expect(parseArgs(['-n', '-3'], specs, 't').flags.get('limit')).toEqual(['-3']);
    expect(parseArgs(['--limit', '--json'], specs, 't').flags.get('limit')).toEqual(['--json']);
  });

  it('rejects unknown flags, missing values and repeats', () => {
    expect(() => parseArgs(['--nope'], specs, 't')).toThrow(UsageError);
    expect(() => parseArgs(['--nope'], specs, 't')).toThrow('unknown flag --nope for `agentlog t`');
    expect(() => parseArgs(['-x'], specs, 't')).toThrow('unknown flag -x for `agentlog t`');
    expect(() => parseArgs(['--limit'], specs, 't')).toThrow(/needs a value/);
    expect(() => parseArgs(['-n', '1', '-n', '2'], specs, 't')).toThrow(/twice/);
    expect(() => parseArgs(['--json=1'], specs, 't')).toThrow(/takes no value/);
  });

  it('treats everything after -- as positionals', () => {
    const a = parseArgs(['--', '--json', '-n'], specs, 't');
    expect(a.positionals).toEqual(['--json', '-n']);
    expect(a.flags.size).toBe(0);
  });
});

describe('jsonRequested', () => {
  it('reads --json as a flag, not as any word in argv', () => {
    expect(jsonRequested(['x', '--json', '--unknown'])).toBe(true);
    expect(jsonRequested(['x', '--', '--json'])).toBe(false);
    expect(jsonRequested(['x'])).toBe(false);
  });
});
