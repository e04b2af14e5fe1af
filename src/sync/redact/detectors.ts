// The pattern detectors. Every quantifier is bounded or ends the pattern (a greedy run that ends a
// pattern never backtracks into a failure), and a run that must be followed by something starts only
// at a run boundary (a lookbehind), so each pattern does linear work over its input; fast-check
// fuzzes them with adversarial repetitions in `redact.fuzz.test.ts`.
// Patterns follow livingbrain-redact's (Livingbrain-wiki/livingbrain, crates/livingbrain-redact/src/patterns.rs,
// as summarised in research/livingbrain.md §6.2), widened where noted.
import type { RedactionClass } from './classes.js';

export interface PatternDetector {
  cls: RedactionClass;
  /** Lower wins where findings overlap: a provider's key beats a generic rule, which beats entropy. */
  rank: number;
  /** Global, with indices (`d`) when `group` is set. */
  re: RegExp;
  /**
   * Only this capture group is replaced (the label, the host or the key name stays readable); with
   * several, the first that took part in the match.
   */
  group?: number | readonly number[];
  /** A cheap test the text must pass before the regex runs. */
  prefilter?: RegExp;
  /** A literal that every match contains: a cheap `includes` skips the regex when it is absent. */
  needle?: string;
  /** Case-insensitive needle test. */
  needleFold?: boolean;
  /** A last check on a match (a version number is not an address). */
  accept?(match: RegExpExecArray, text: string): boolean;
}

const envNameWords = /SECRET|TOKEN|PASSWORD|PASSWD|PWD|API_?KEY|PRIVATE|CREDENTIAL|AUTH/;
const dbSchemes =
  /^(?:postgres(?:ql)?|mysql|mariadb|mongodb(?:\+srv)?|redis|rediss|amqps?|mssql|sqlserver|cockroachdb|clickhouse)(?:\+[a-z0-9]{1,16})?$/i;

function hasLetterAndDigit(s: string): boolean {
  return /[A-Za-z]/.test(s) && /[0-9]/.test(s);
}

function ipAccepted(m: RegExpExecArray): boolean {
  const quad = m[0];
  if (quad === '0.0.0.0' || quad.startsWith('127.')) return false;
  // 1.2.3.4: every octet one digit reads as a version number, not an address.
  return !quad.split('.').every((o) => o.length === 1);
}

export const patternDetectors: readonly PatternDetector[] = [
  { cls: 'anthropic_key', rank: 0, needle: 'sk-ant-', re: /sk-ant-[A-Za-z0-9_-]{20,}/g },
  { cls: 'openrouter_key', rank: 0, needle: 'sk-or-', re: /sk-or-v1-[A-Za-z0-9_-]{32,}/g },
  // sk-proj-, sk-admin-, sk-svcacct- and the old bare sk-: not when glued to a word (`task-…`).
  { cls: 'openai_key', rank: 1, needle: 'sk-', re: /(?<![A-Za-z0-9_])sk-[A-Za-z0-9_-]{20,}/g },
  { cls: 'google_api_key', rank: 1, needle: 'AIza', re: /AIza[0-9A-Za-z_-]{35}/g },
  { cls: 'groq_key', rank: 1, needle: 'gsk_', re: /gsk_[A-Za-z0-9]{40,}/g },
  { cls: 'xai_key', rank: 1, needle: 'xai-', re: /xai-[A-Za-z0-9]{40,}/g },
  { cls: 'huggingface_token', rank: 1, needle: 'hf_', re: /hf_[A-Za-z0-9]{30,}/g },
  { cls: 'replicate_token', rank: 1, needle: 'r8_', re: /r8_[A-Za-z0-9]{30,}/g },
  { cls: 'github_token', rank: 1, re: /github_pat_[A-Za-z0-9_]{50,}|gh[pousr]_[A-Za-z0-9]{36,}/g },
  { cls: 'gitlab_pat', rank: 1, needle: 'glpat-', re: /glpat-[A-Za-z0-9_-]{20,}/g },
  { cls: 'npm_token', rank: 1, needle: 'npm_', re: /npm_[A-Za-z0-9]{30,}/g },
  { cls: 'pypi_token', rank: 1, needle: 'pypi-', re: /pypi-AgE[A-Za-z0-9_-]{50,}/g },
  { cls: 'sendgrid_key', rank: 1, needle: 'SG.', re: /SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}/g },
  { cls: 'aws_access_key', rank: 1, re: /(?:AKIA|ASIA)[0-9A-Z]{16}/g },
  {
    cls: 'aws_secret_key',
    rank: 1,
    needle: 'aws',
    needleFold: true,
    group: 1,
    re: /aws[^\n]{0,24}?access[\s_-]?key[\s_-]?[:=][\s"']{0,16}([A-Za-z0-9/+=]{40,200})/dgi,
  },
  { cls: 'azure_key', rank: 1, needle: 'AccountKey=', group: 1, re: /AccountKey=([A-Za-z0-9+/]{86}==)/dg },
  { cls: 'digitalocean_token', rank: 1, needle: '_v1_', re: /do[por]_v1_[a-f0-9]{64}/g },
  { cls: 'stripe_key', rank: 1, re: /(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{20,}|whsec_[A-Za-z0-9]{16,}/g },
  { cls: 'slack_token', rank: 1, needle: 'xox', re: /xox[abprse]-[0-9A-Za-z-]{10,}/g },
  {
    cls: 'slack_webhook',
    rank: 1,
    needle: 'hooks.slack.com',
    group: 1,
    re: /https:\/\/hooks\.slack\.com\/services\/(T[A-Za-z0-9_]{8,}\/B[A-Za-z0-9_]{8,}\/[A-Za-z0-9_]{20,})/dg,
  },
  {
    cls: 'discord_webhook',
    rank: 1,
    needle: '/api/webhooks/',
    group: 1,
    re: /discord(?:app)?\.com\/api\/webhooks\/[0-9]{17,20}\/([A-Za-z0-9_-]{60,100})/dg,
  },
  { cls: 'twilio_key', rank: 1, needle: 'SK', re: /(?<![A-Za-z0-9])SK[0-9a-fA-F]{32}(?![A-Za-z0-9])/g },
  { cls: 'shopify_token', rank: 1, needle: 'shp', re: /shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}/g },
  { cls: 'polar_token', rank: 1, needle: 'polar_', re: /polar_(?:oat|pat|at_[uo]|rt_[uo]|cs)_[A-Za-z0-9]{20,}/g },
  {
    cls: 'jwt',
    rank: 1,
    needle: 'eyJ',
    re: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/g,
  },
  {
    cls: 'bearer_token',
    rank: 2,
    needle: 'earer',
    group: 1,
    re: /(?<![A-Za-z0-9_])[Bb]earer[ \t]{1,8}([A-Za-z0-9._~+/-]{16,}=*)/dg,
  },
  {
    cls: 'basic_auth',
    rank: 2,
    needle: 'asic',
    group: 1,
    re: /(?<![A-Za-z0-9_])[Bb]asic[ \t]{1,8}([A-Za-z0-9+/]{12,}={0,2})(?![A-Za-z0-9+/=])/dg,
    accept: (m) => hasLetterAndDigit(m[1] ?? ''),
  },
  {
    // KEY=value lines (.env, shell exports); the name is upper case as such files write it. A quoted
    // value is replaced inside its quotes; an unterminated quote is taken as part of a bare value.
    cls: 'env_secret',
    rank: 2,
    group: [2, 3, 4],
    re: /^[ \t]{0,32}(?:export[ \t]{1,8})?([A-Za-z_][A-Za-z0-9_]{0,127})[ \t]{0,8}=[ \t]{0,8}(?:"([^"\n]+)"|'([^'\n]+)'|([^\s#]+))/dgm,
    accept: (m) => envNameWords.test(m[1] ?? ''),
  },
  {
    // "password": "hunter2-ab12", api_key: …, client_secret=…: the value must mix letters and digits.
    cls: 'generic_secret',
    rank: 2,
    group: 1,
    prefilter: /password|passwd|passphrase|secret|token|api[_-]?key|access[_-]?key|private[_-]?key/i,
    re: /(?<![A-Za-z0-9])(?:password|passwd|passphrase|secret|token|api[_-]?key|access[_-]?key|private[_-]?key)[A-Za-z0-9_-]{0,40}(?:\\?["'])?[ \t]{0,8}[:=][ \t]{0,8}(?:\\?["'])?([^\s"'`,;(){}<>$%[\]\\]{8,})/dgi,
    accept: (m) => hasLetterAndDigit(m[1] ?? ''),
  },
  {
    cls: 'database_url',
    rank: 2,
    needle: '://',
    group: 2,
    re: /(?<![A-Za-z0-9+.-])([A-Za-z][A-Za-z0-9+.-]{1,24}):\/\/[^\s:/@]{0,256}:([^\s/@]{1,256})@/dg,
    accept: (m) => dbSchemes.test(m[1] ?? ''),
  },
  {
    cls: 'url_credentials',
    rank: 2,
    needle: '://',
    group: 2,
    re: /(?<![A-Za-z0-9+.-])([A-Za-z][A-Za-z0-9+.-]{1,24}):\/\/[^\s:/@]{0,256}:([^\s/@]{1,256})@/dg,
    accept: (m) => !dbSchemes.test(m[1] ?? ''),
  },
  { cls: 'home_path', rank: 3, group: 1, re: /\/(?:home|Users)\/([A-Za-z0-9._-]{1,64})/dg },
  { cls: 'home_path', rank: 3, needle: 'Users', group: 1, re: /[A-Za-z]:\\{1,2}Users\\{1,2}([A-Za-z0-9._-]{1,64})/dg },
  {
    cls: 'email',
    rank: 3,
    needle: '@',
    re: /[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?){0,8}\.[A-Za-z]{2,24}(?![A-Za-z0-9-])/g,
  },
  {
    cls: 'phone',
    rank: 3,
    re: /\+[0-9](?:[()\- .]?[0-9]){7,14}(?![0-9])|\([0-9]{3}\)[ -]?[0-9]{3}[ -][0-9]{4}(?![0-9])|(?<![0-9-])[0-9]{3}-[0-9]{3}-[0-9]{4}(?![0-9-])/g,
  },
  {
    cls: 'ip_address',
    rank: 3,
    needle: '.',
    re: /(?<![0-9A-Za-z.])(?:(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])(?![0-9.])/g,
    accept: ipAccepted,
  },
];

/** `-----BEGIN … PRIVATE KEY-----` to its footer, or to the end of the text when the footer is missing. */
export const privateKeyBegin = /-----BEGIN (?:[A-Z0-9]{1,24} ){0,6}PRIVATE KEY(?: BLOCK)?-----/g;
export const privateKeyEnd = /-----END (?:[A-Z0-9]{1,24} ){0,6}PRIVATE KEY(?: BLOCK)?-----/g;
