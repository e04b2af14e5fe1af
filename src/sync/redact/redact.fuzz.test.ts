// Property tests: idempotence, nothing planted survives in any surrounding, and no input makes a
// detector backtrack catastrophically. The time bound is CPU time spent (work), not wall clock, and
// generous: linear redaction of 256 KiB takes milliseconds, a quadratic pattern takes minutes.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findSecrets, redactJson, redactText, redactionClasses } from './index.js';
import { plantedSecrets } from './samples.js';

const fragments = [
  'sk-ant-',
  'sk-',
  'sk-or-v1-',
  'AIza',
  'gsk_',
  'xai-',
  'hf_',
  'r8_',
  'ghp_',
  'github_pat_',
  'glpat-',
  'npm_',
  'pypi-AgE',
  'SG.',
  'AKIA',
  'aws',
  'aws_access_key',
  'access',
  'key',
  '=',
  ':',
  'AccountKey=',
  'dop_v1_',
  'sk_live_',
  'whsec_',
  'xoxb-',
  'https://hooks.slack.com/services/T',
  '/B',
  'discord.com/api/webhooks/',
  'SK',
  'shpat_',
  'polar_oat_',
  'eyJ',
  '.',
  'Bearer ',
  'Basic ',
  'export ',
  'TOKEN',
  'API_KEY',
  '"',
  "'",
  '\n',
  ' ',
  '\t',
  '#',
  'password',
  'secret',
  'postgres://',
  'https://',
  '@',
  '/home/',
  '/Users/',
  'C:\\Users\\',
  '+1',
  '+',
  '(',
  ')',
  '-',
  '255.',
  '10.',
  '1',
  '9',
  'a',
  'Z',
  '0',
  '_',
  '/',
  '+',
  '-----BEGIN PRIVATE KEY-----',
  '-----BEGIN RSA ',
  '-----END',
  ';base64,',
  ';',
  '[REDACTED:',
  ']',
  '[REDACTED:email]',
  'é',
  '😀',
];
const fragment = fc.constantFrom(...fragments);
const noisyText = fc.array(fc.oneof(fragment, fc.string({ maxLength: 6 })), { maxLength: 40 }).map((p) => p.join(''));
const separator = fc.constantFrom(' ', '\n', '\t', ' (', '"', ', ');

function cpuMicros(work: () => void): number {
  const start = process.cpuUsage();
  work();
  const used = process.cpuUsage(start);
  return used.user + used.system;
}

describe('redaction properties', () => {
  it('is idempotent: redacting the redacted text changes nothing', () => {
    fc.assert(
      fc.property(noisyText, (text) => {
        const once = redactText(text).text;
        expect(redactText(once).text).toBe(once);
      }),
      { numRuns: 2000 },
    );
  });

  it('leaves no planted secret, whatever text surrounds it', () => {
    fc.assert(
      fc.property(fc.constantFrom(...redactionClasses), noisyText, separator, noisyText, separator, (cls, before, s1, after, s2) => {
        const planted = plantedSecrets[cls];
        const out = redactText(`${before}${s1}${planted.text}${s2}${after}`).text;
        expect(out).not.toContain(planted.secret);
      }),
      { numRuns: 2000 },
    );
  });

  it('value-by-value redaction always serialises to a body that parses and passes the whole-body check', () => {
    const leaf = fc.oneof(
      noisyText,
      fc.constantFrom(...redactionClasses).map((c) => plantedSecrets[c].text),
      fc.integer(),
      fc.constant(null),
    );
    const tree = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        leaf,
        fc.array(tie('node'), { maxLength: 4 }),
        fc.dictionary(fc.string({ maxLength: 5 }), tie('node'), { maxKeys: 4 }),
      ),
    })).node;
    fc.assert(
      fc.property(tree, (value) => {
        const body = JSON.stringify(redactJson(value).value);
        expect(() => JSON.parse(body)).not.toThrow();
        expect(findSecrets(body)).toEqual([]);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('no catastrophic backtracking', () => {
  const size = 256 * 1024;
  // CPU microseconds for 256 KiB: linear redaction needs a few milliseconds; 2 s of work means a
  // pattern went super-linear (a quadratic one needs minutes here).
  const budget = 2_000_000;
  const repeatTo = (unit: string): string => unit.repeat(Math.ceil(size / Math.max(1, unit.length))).slice(0, size);

  const targeted = [
    'a',
    'aB3',
    'eyJ',
    'eyJaaaaaaaaaa.',
    'TOKEN',
    'A_TOKEN',
    'sk-',
    `sk-${'a'.repeat(19)} `,
    'AKIA',
    `aws${'x'.repeat(24)}`,
    'awsaccess',
    'postgres://',
    'postgres://u:',
    'https://a:',
    'a:b',
    '1.',
    '1.2.',
    '255.255.',
    '+1 ',
    '+1',
    '(555) ',
    '555-',
    'a.',
    'a@',
    'a@b.',
    'a-b@c-d.e',
    '\nA_TOKEN',
    '\nA_TOKEN ',
    'A_TOKEN="',
    'password',
    'password:',
    'password: ',
    'Bearer ',
    'Basic ',
    '-----BEGIN PRIVATE KEY-----',
    '-----BEGIN ',
    '/home/',
    'C:\\Users\\',
    'hooks.slack.com/services/T',
    'discord.com/api/webhooks/1',
    '[REDACTED:',
    'sk-ant-',
    'xoxb',
    'SG.',
    'AccountKey=',
    ';base64,',
    'Zx9Qw2Er7Ty4',
  ];
  it.each(targeted.map((u) => [JSON.stringify(u).slice(0, 40), u]))('stays linear on %s repeated to 256 KiB', (_label, unit) => {
    const text = repeatTo(unit);
    expect(cpuMicros(() => redactText(text))).toBeLessThan(budget);
    expect(cpuMicros(() => findSecrets(JSON.stringify(text)))).toBeLessThan(budget);
  });

  it('stays linear on fuzzed repetitions of detector fragments', () => {
    fc.assert(
      fc.property(fc.array(fragment, { minLength: 1, maxLength: 8 }), (parts) => {
        const text = repeatTo(parts.join(''));
        expect(cpuMicros(() => redactText(text))).toBeLessThan(budget);
      }),
      { numRuns: 40 },
    );
  });
});
