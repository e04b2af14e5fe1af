import { describe, expect, it } from 'vitest';
import { findSecrets, redactJson, redactText, redactionClasses } from './index.js';
import { plantedSecrets } from './samples.js';

describe('redactText', () => {
  it.each(redactionClasses.map((c) => [c]))('finds and replaces %s', (cls) => {
    const planted = plantedSecrets[cls];
    const r = redactText(planted.text);
    expect(r.text).toContain(`[REDACTED:${cls}]`);
    expect(r.text).not.toContain(planted.secret);
    expect(r.redactions).toBeGreaterThan(0);
    // Idempotent: a second pass finds nothing and changes nothing.
    expect(redactText(r.text)).toEqual({ text: r.text, redactions: 0, findings: [] });
  });

  it('keeps labels and hosts readable where the detector is labelled', () => {
    expect(redactText('DB_PASSWORD=postgres://app:pw1234@db:5432/x').text).toBe('DB_PASSWORD=[REDACTED:env_secret]');
    expect(redactText('url postgres://app:pw1234@db:5432/x').text).toBe('url postgres://app:[REDACTED:database_url]@db:5432/x');
    expect(redactText('cd /home/bob/src').text).toBe('cd /home/[REDACTED:home_path]/src');
    expect(redactText('export API_KEY=abc').text).toBe('export API_KEY=[REDACTED:env_secret]');
  });

  it('lets a provider key win its bytes inside a generic finding, leaving nothing between', () => {
    const key = `AKIA${'ABCDEFGHIJKLMNOP'}`;
    const r = redactText(`postgres://u:p4ss-${key}@host/db`);
    expect(r.text).toBe('postgres://u:[REDACTED:database_url][REDACTED:aws_access_key]@host/db');
  });

  it('leaves ordinary text, versions, loopback, hashes and uuids alone', () => {
    const plain = [
      'Run npm test, then open http://127.0.0.1:7420/ and check v1.2.3.4 and 1.2.3.4',
      'commit 3f2a9c1e5b7d4e8a9c1f2a4b6d8e0f1a2b3c4d5e and session 3f2a9c1e-5b7d-4e8a-9c1f-2a4b6d8e0f1a',
      'const token: string = process.env.TOKEN; // token: see docs',
      'export PATH=/usr/bin:$PATH',
      'at 2026-10-01T09:30:00.000Z the cost was $0.0120',
      'src/agents/claude-code/tool-calls.ts',
      '~/code/demo/src/index.ts',
    ];
    for (const t of plain) expect(redactText(t).text).toBe(t);
  });

  it('ignores a data URI payload and a URL path but not a bare random string', () => {
    const blob = 'Zx9Qw2Er7Ty4Ui1Op6As3Df8Gh5Jk0LmNbVcX';
    expect(redactText(`data:image/png;base64,${blob}`).text).toBe(`data:image/png;base64,${blob}`);
    expect(redactText(`https://example.com/files/${blob}`).text).toBe(`https://example.com/files/${blob}`);
    expect(redactText(`value ${blob}`).text).toBe('value [REDACTED:high_entropy]');
  });

  it('settles on a URL scheme repeated with key words between (fuzz counterexample: each pass used to uncover the next run)', () => {
    const unit = 'keyAPI_KEYhttps://1passwordpassword';
    const text = unit.repeat(Math.ceil((256 * 1024) / unit.length));
    const r = redactText(text);
    expect(redactText(r.text).redactions).toBe(0);
    // Each run starts with a URL's '//' after its scheme's ':', so none is a bare random string.
    expect(r.text).toBe(text);
  });

  it('keeps a URL path a URL path after a key inside it is redacted', () => {
    const key = `AKIA${'ABCDEFGHIJKLMNOP'}`;
    const run = 'Zx9Qw2Er7Ty4Ui1Op6As3Df8Gh5Jk0LmNbVcX';
    const r = redactText(`see https://example.com/${key}/${run} now`);
    expect(r.text).toBe(`see https://example.com/[REDACTED:aws_access_key]/${run} now`);
    expect(r.redactions).toBe(1);
  });

  it('redacts a private key without its footer to the end of the text', () => {
    const r = redactText(`x -----BEGIN ${'OPENSSH PRIVATE'} KEY-----\nb3BlbnNzaC1rZXktdjE\nmore`);
    expect(r.text).toBe('x [REDACTED:private_key]');
  });

  it('matches .env lines at every line start of a multi-line value', () => {
    const r = redactText('a\nSTRIPE_SECRET=whatever\n  DB_PASSWORD = "two words"\nNAME=x');
    expect(r.text).toBe('a\nSTRIPE_SECRET=[REDACTED:env_secret]\n  DB_PASSWORD = "[REDACTED:env_secret]"\nNAME=x');
  });
});

describe('redactJson', () => {
  it('redacts every string value, recursively, keys untouched and key order kept', () => {
    const input = {
      'bob@example.com': 'mail bob@example.com',
      list: [1, true, null, { deep: 'ip 10.1.2.3' }],
      n: 5,
    };
    const r = redactJson(input);
    expect(r.value).toEqual({
      'bob@example.com': 'mail [REDACTED:email]',
      list: [1, true, null, { deep: 'ip [REDACTED:ip_address]' }],
      n: 5,
    });
    expect(Object.keys(r.value as object)).toEqual(['bob@example.com', 'list', 'n']);
    expect(r.redactions).toBe(2);
    expect(input.list[3]).toEqual({ deep: 'ip 10.1.2.3' });
  });

  it('keeps the serialised body parseable and clean where redacting the text would straddle an escape', () => {
    const value = { text: 'line one\nname@example.com\n"quoted" TOKEN=x' };
    const r = redactJson(value);
    const body = JSON.stringify(r.value);
    expect(JSON.parse(body)).toEqual(r.value);
    expect(findSecrets(body)).toEqual([]);
  });
});

describe('findSecrets', () => {
  it('reads JSON escapes as what they stand for', () => {
    expect(findSecrets(JSON.stringify({ t: 'x\nAPI_TOKEN=abc123' }))).toHaveLength(1);
    // 31 random characters after a line break are not a 32-character run.
    expect(findSecrets(JSON.stringify({ t: 'x\nZx9Qw2Er7Ty4Ui1Op6As3Df8Gh5Jk0L' }))).toEqual([]);
  });

  it('finds every planted class in a serialised body', () => {
    for (const cls of redactionClasses) {
      const found = findSecrets(JSON.stringify({ t: plantedSecrets[cls].text }));
      expect(found.map((f) => f.cls)).toContain(cls);
    }
  });
});
