// The Aider reader on history files written as aider's io.py writes them: one session per run,
// typed lines without aider's own output, reasoning tags, token reports, claims by run.
import { appendFile, mkdir, readFile, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/temp.js';
import { DiscoveryCache } from '../../scan/discovery-cache.js';
import type { DiscoveredSession } from '../types.js';
import { aiderHomes, aiderReader } from './reader.js';
import { ai, banner, header, tool, user } from './test-support/history.js';

const think = (t: string): string =>
  `<thinking-content-7bbeb8e1441453ad999a0bbba8a46d4b>\n\n${t}\n\n</thinking-content-7bbeb8e1441453ad999a0bbba8a46d4b>\n\n`;

describe('aiderReader', () => {
  it('lists each run of a repository once and reads it into the record', async () => {
    const repo = join(await tempDir(), 'work', 'app');
    await mkdir(repo, { recursive: true });
    const file = join(repo, '.aider.chat.history.md');
    await writeFile(
      file,
      header('2026-05-02 13:55:39') +
        tool('You can skip this check with --no-gitignore', 'Add .aider* to .gitignore (recommended)? (Y)es/(N)o [Yes]: y') +
        banner('anthropic/claude-sonnet-4-5') +
        user('rename parse to parseAll\nin src/a.py') +
        ai(
          `${think('Only one caller.')}src/a.py\n\`\`\`python\n<<<<<<< SEARCH\ndef parse():\n=======\ndef parseAll():\n>>>>>>> REPLACE\n\`\`\``,
        ) +
        tool('Tokens: 12k sent, 2.1k cache write, 8.0k cache hit, 638 received.', 'Cost: $0.03 message, $0.03 session.') +
        tool('Applied edit to src/a.py', 'Commit 1a2b3c4 refactor: rename parse') +
        user('/run pytest') +
        tool('Add command output to the chat? (Y)es/(N)o [Yes]: n') +
        header('2026-05-03 08:00:00') +
        banner('gpt-5', '.git with 13 files') +
        user('explain the cache') +
        ai('The cache keeps summaries.') +
        tool('Tokens: 900 sent, 120 received. Cost: $0.0020 message, $0.0020 session.'),
    );
    const found = await aiderReader.discover(repo);
    expect(found.problems).toEqual([]);
    expect(found.sessions.map((s) => s.sessionId)).toEqual([
      expect.stringMatching(/^20260502T135539-[0-9a-f]{8}$/),
      expect.stringMatching(/^20260503T080000-[0-9a-f]{8}$/),
    ]);
    const [first, second] = found.sessions as [DiscoveredSession, DiscoveredSession];
    expect(first).toMatchObject({ agent: 'aider', home: repo, cwd: repo, path: `${file}#1` });
    const rec = (await aiderReader.parse(first, { detail: 'full' })).record;
    expect(rec?.turns.map((t) => [t.role, t.text])).toEqual([
      ['user', 'rename parse to parseAll\nin src/a.py'],
      ['reasoning', 'Only one caller.'],
      ['assistant', 'src/a.py\n```python\n<<<<<<< SEARCH\ndef parse():\n=======\ndef parseAll():\n>>>>>>> REPLACE\n```'],
      ['event', 'Applied edit to src/a.py\nCommit 1a2b3c4 refactor: rename parse'],
      ['user', '/run pytest'],
      ['event', 'Add command output to the chat? (Y)es/(N)o [Yes]: n'],
    ]);
    expect(rec?.models).toEqual(['anthropic/claude-sonnet-4-5']);
    expect(rec?.totals).toEqual({
      input_tokens: 12000 - 2100 - 8000,
      output_tokens: 638,
      cache_read_tokens: 8000,
      cache_creation_tokens: 2100,
      reasoning_tokens: 0,
      cost_usd: 0.03,
    });
    expect(rec?.started_at).toBe('2026-05-02T13:55:39');
    expect(rec?.repo).toBe(repo);
    const later = (await aiderReader.parse(second, { detail: 'full' })).record;
    expect(later?.turns.map((t) => t.text)).toEqual(['explain the cache', 'The cache keeps summaries.']);
    expect(later?.totals).toMatchObject({ input_tokens: 900, output_tokens: 120, cost_usd: 0.002 });

    // A run grows as aider appends to the newest one; the older run's id and record stay.
    await appendFile(file, user('and the index?') + ai('It is rebuilt on change.'));
    const grown = await aiderReader.discover(repo);
    expect(grown.sessions.map((s) => s.sessionId)).toEqual(found.sessions.map((s) => s.sessionId));
    const extract = await aiderReader.messages.extract(grown.sessions[1] as DiscoveredSession, null);
    expect(extract.records.map((r) => r.text)).toEqual([
      'explain the cache',
      'The cache keeps summaries.',
      'and the index?',
      'It is rebuilt on change.',
    ]);

    expect(await aiderReader.claim(`${file}#1`)).toMatchObject({ sessionId: first.sessionId });
    expect((await aiderReader.claim(file))?.sessionId).toBe(second.sessionId);
    expect(await aiderReader.claim(`${file}#5`)).toBeNull();
    const notes = join(repo, 'notes.md');
    await writeFile(notes, '# notes\n');
    expect(await aiderReader.claim(notes)).toBeNull();
  });

  it('ends a run at the next header when the header straddles two reads', async () => {
    const repo = await tempDir();
    const file = join(repo, '.aider.chat.history.md');
    const start = header('2026-06-01 10:00:00') + user('long answer please');
    // The first read of a run is 64 KiB from its header (byte 1): put the next header's newline 5 bytes before its end.
    const fill = 65_537 - 5 - start.length - 3;
    const first = start + ai('y'.repeat(fill));
    expect(first.length).toBe(65_532);
    await writeFile(file, `${first}${header('2026-06-01 11:00:00')}${user('next')}${ai('short')}`);
    const [a, b] = (await aiderReader.discover(repo)).sessions as [DiscoveredSession, DiscoveredSession];
    const ra = (await aiderReader.parse(a, { detail: 'full' })).record;
    expect(ra?.turns.map((t) => [t.role, t.text.length])).toEqual([
      ['user', 18],
      ['assistant', fill],
    ]);
    expect((await aiderReader.parse(b, { detail: 'full' })).record?.turns.map((t) => t.text)).toEqual(['next', 'short']);
  });

  it('looks in the variable’s file, then in known projects and their parents, never in / or the home twice', async () => {
    const lookup = (env: Record<string, string>, projects: string[] = []) => ({ env: (n: string) => env[n], homedir: '/home/u', projects });
    expect(aiderHomes(lookup({}))).toEqual(['/home/u']);
    expect(aiderHomes(lookup({ AIDER_CHAT_HISTORY_FILE: '/x/.aider.chat.history.md' }))).toEqual(['/x']);
    expect(aiderHomes(lookup({ AIDER_CHAT_HISTORY_FILE: '/x/chat.md' }))).toEqual(['/x/chat.md']);
    expect(aiderHomes(lookup({}, ['/home/u/code/app/src', '/home/u/code/lib', 'relative']))).toEqual([
      '/home/u',
      '/home/u/code',
      '/home/u/code/app',
      '/home/u/code/app/src',
      '/home/u/code/lib',
    ]);
    // The same folders in the same order whichever project was seen last.
    expect(aiderHomes(lookup({}, ['/home/u/code/lib', '/home/u/code/app', '/home/u/code/app/src']))).toEqual(
      aiderHomes(lookup({}, ['/home/u/code/app/src', '/home/u/code/lib'])),
    );
    const user = await tempDir();
    const custom = join(user, 'chat.md');
    await writeFile(custom, `${header('2026-01-01 00:00:00')}\n#### hi  \n${ai('hello')}`);
    const found = await aiderReader.discover(custom);
    expect(found.sessions.map((s) => [s.home, s.path])).toEqual([[user, `${custom}#1`]]);
    expect(await aiderReader.discover(join(user, 'missing'))).toEqual({ sessions: [], problems: [] });
  });
});

describe('aider discovery through a discovery cache', () => {
  it('answers as from the disk, cold and warm, and finds the runs of a grown or rewritten history again', async () => {
    const repo = join(await tempDir(), 'work', 'app');
    await mkdir(repo, { recursive: true });
    const file = join(repo, '.aider.chat.history.md');
    const first = header('2026-05-02 13:55:39') + banner('gpt-5') + user('explain the cache') + ai('It keeps summaries.');
    await writeFile(file, first);
    const old = Math.floor(Date.now() / 1000) - 3600;
    await utimes(file, old, old);
    const cache = await DiscoveryCache.open(join(await tempDir(), 'cache.json'), 't', () => Date.now() + 60_000);
    const plain = await aiderReader.discover(repo);
    expect(plain.sessions).toHaveLength(1);
    expect(await aiderReader.discover(repo, cache)).toEqual(plain);
    await cache.save();
    expect(await aiderReader.discover(repo, cache)).toEqual(plain);
    expect(cache.stats).toMatchObject({ factHits: 1, factMisses: 1 });
    await cache.save();

    // A second run appended: its size moved, so the runs are found again.
    await appendFile(file, header('2026-05-03 08:00:00') + banner('gpt-5') + user('and the index?') + ai('It is rolling.'));
    await utimes(file, old, old);
    const grown = await aiderReader.discover(repo, cache);
    expect(grown).toEqual(await aiderReader.discover(repo));
    expect(grown.sessions).toHaveLength(2);
    await cache.save();

    // Rewritten to the same size with another banner, its times put back (a coarse clock): a new
    // ctime, so the run's id (a hash of its banner) is worked out again.
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.replace('gpt-5', 'gpt-6'));
    await utimes(file, old, old);
    const rewritten = await aiderReader.discover(repo, cache);
    expect(rewritten).toEqual(await aiderReader.discover(repo));
    expect(rewritten.sessions[0]?.sessionId).not.toBe(grown.sessions[0]?.sessionId);
  });
});
