// One planted example per redaction class, built from parts so no scanner takes this file for a leak.
// Shared by the redaction tests, the sync end-to-end tests' secret corpus and the benchmark.
import type { RedactionClass } from './classes.js';

const a = (n: number, alphabet = 'aB3dE5fG7hJ9kLmN2pQ4rS6tU8vW0xYz'): string => {
  let out = '';
  for (let i = 0; i < n; i++) out += alphabet[(i * 7 + 3) % alphabet.length];
  return out;
};
const hex = (n: number): string => a(n, '0123456789abcdef');

/** A text per class whose secret part must not survive redaction, and that part alone. */
export const plantedSecrets: Record<RedactionClass, { text: string; secret: string }> = {
  anthropic_key: { text: `key ${'sk-'}ant-api03-${a(40)} end`, secret: `ant-api03-${a(40)}` },
  openai_key: { text: `OPENAI ${'sk-'}proj-${a(56)}`, secret: `proj-${a(56)}` },
  openrouter_key: { text: `router ${'sk-'}or-v1-${hex(64)}`, secret: hex(64) },
  google_api_key: { text: `maps ${'AI'}za${a(35)} ok`, secret: `za${a(35)}` },
  groq_key: { text: `groq ${'gs'}k_${a(52)}`, secret: a(52) },
  xai_key: { text: `grok ${'xa'}i-${a(80)}`, secret: a(80) },
  huggingface_token: { text: `hub ${'hf'}_${a(34)}`, secret: a(34) },
  replicate_token: { text: `rep ${'r8'}_${a(37)}`, secret: a(37) },
  github_token: { text: `gh ${'gh'}p_${a(36)} and ${'github'}_pat_${a(60)}`, secret: a(36) },
  gitlab_pat: { text: `gl ${'gl'}pat-${a(20)}`, secret: a(20) },
  npm_token: { text: `//registry.npmjs.org/:_authToken=${'npm'}_${a(36)}`, secret: a(36) },
  pypi_token: { text: `pypi ${'pypi'}-AgEIcHlwaS5vcmc${a(60)}`, secret: a(60) },
  sendgrid_key: { text: `mail ${'SG'}.${a(22)}.${a(43)}`, secret: a(43) },
  aws_access_key: { text: `id ${'AK'}IAIOSFODNN7EXAMPL3 done`, secret: 'IOSFODNN7EXAMPL3' },
  aws_secret_key: {
    text: `aws_secret_access_key = ${a(40, 'wJalrXUtnFEMI/K7MDENG+bPxRfiCY9')}`,
    secret: a(40, 'wJalrXUtnFEMI/K7MDENG+bPxRfiCY9'),
  },
  azure_key: { text: `DefaultEndpointsProtocol=https;AccountKey=${a(86)}==;`, secret: a(86) },
  digitalocean_token: { text: `do ${'dop'}_v1_${hex(64)}`, secret: hex(64) },
  stripe_key: { text: `stripe ${'sk'}_live_${a(24)}`, secret: a(24) },
  slack_token: { text: `slack ${'xo'}xb-123456789012-${a(24)}`, secret: a(24) },
  slack_webhook: {
    text: `hook https://hooks.slack.com/services/T${a(10)}/B${a(10)}/${a(24)}`,
    secret: `/${a(24)}`,
  },
  discord_webhook: { text: `https://discord.com/api/webhooks/123456789012345678/${a(68)}`, secret: a(68) },
  twilio_key: { text: `twilio ${'S'}K${hex(32)} ok`, secret: hex(32) },
  shopify_token: { text: `shop ${'shp'}at_${hex(32)}`, secret: hex(32) },
  polar_token: { text: `polar ${'polar'}_oat_${a(30)}`, secret: a(30) },
  jwt: { text: `Cookie: ${'ey'}J${a(20)}.${'ey'}J${a(30)}.${a(43)}`, secret: a(43) },
  private_key: {
    text: `-----BEGIN ${'RSA PRIVATE'} KEY-----\nMIIEpAIBAAKCAQEA${a(40)}\n-----END RSA PRIVATE KEY-----`,
    secret: `MIIEpAIBAAKCAQEA${a(40)}`,
  },
  bearer_token: { text: `curl -H "Authorization: Bearer ${a(12)}.${a(20)}"`, secret: `${a(12)}.${a(20)}` },
  basic_auth: { text: `Authorization: Basic ${'dXNlcjpw'}YXNzd29yZDEyMw==`, secret: 'dXNlcjpwYXNzd29yZDEyMw' },
  env_secret: { text: `# settings\nexport MY_SERVICE_TOKEN="hunter two 22"\nPORT=80`, secret: 'hunter two 22' },
  generic_secret: { text: `{"db_password": "c0rrect-horse-9"}`, secret: 'c0rrect-horse-9' },
  database_url: { text: `DATABASE=postgres://app:s3cr3t-pw@db.internal:5432/prod`, secret: 's3cr3t-pw' },
  url_credentials: { text: `clone https://deploy:tok3n-xyz@git.example.org/repo.git`, secret: 'tok3n-xyz' },
  home_path: { text: `cat /home/bobsmith/.ssh/config`, secret: 'bobsmith' },
  email: { text: `mail jane.doe+work@example.co.uk today`, secret: 'jane.doe+work@example.co.uk' },
  phone: { text: `call +1 415 555 0132 now`, secret: '415 555 0132' },
  ip_address: { text: `ssh 203.0.113.77 -p 22`, secret: '203.0.113.77' },
  high_entropy: { text: `seed=${'Zx9Qw2Er7Ty4Ui1Op6As3Df8Gh5Jk0LmNbVcX'} done`, secret: 'Zx9Qw2Er7Ty4Ui1Op6As3Df8Gh5Jk0LmNbVcX' },
};
