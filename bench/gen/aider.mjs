// Aider history files (src/agents/aider/README.md names the sources): one
// `.aider.chat.history.md` per repository, appended run after run (`# aider chat started at …`),
// each run a banner of `> ` lines, `#### ` prompts, Markdown replies with SEARCH/REPLACE blocks and
// `> ` notes with the token report. The repositories lie under `<home>/code/`; their folders are
// what an earlier scan would have seen sessions run in (stats.projects, for the bench's state).
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { between, codeBlock, countTokens, fillTo, newStats, pick, sentence, words, writeWhole } from './common.mjs';

/** aider never rotates the file; real ones stay in the megabytes. */
const cap = 6_000_000;

/** aider's `format_tokens`. */
function formatTokens(n) {
  if (n < 1000) return `${n}`;
  if (n < 10000) return `${(n / 1000).toFixed(1)}k`;
  return `${Math.round(n / 1000)}k`;
}
const parsed = (s) => (s.endsWith('k') ? Math.round(Number(s.slice(0, -1)) * 1000) : Number(s));
const tool = (...lines) => lines.map((l) => `> ${l}  \n`).join('');

function stampOf(ms) {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

/** One run of about `target` bytes: its text (starting with the newline before its header) and id. */
function run(r, startMs, target, stats) {
  const stamp = stampOf(startMs);
  const model = pick(r, ['anthropic/claude-sonnet-4-5', 'gpt-5', 'deepseek/deepseek-chat']);
  let text = `\n# aider chat started at ${stamp}\n\n${tool('/usr/local/bin/aider', 'Aider v0.86.2', `Main model: ${model} with diff edit format`, `Git repo: .git with ${between(r, 10, 900)} files`, 'Repo-map: using 4096 tokens, auto refresh')}`;
  const identity = text.slice(1);
  const id = `${stamp.replace(/[-:]/g, '').replace(' ', 'T')}-${createHash('sha256').update(identity).digest('hex').slice(0, 8)}`;
  while (text.length < target) {
    text += `\n#### ${sentence(r, between(r, 6, 40))
      .split('. ')
      .join('  \n#### ')}  \n`;
    const file = `src/${pick(r, words)}.py`;
    text += `\n${sentence(r, between(r, 10, 60))}\n\n${file}\n\`\`\`python\n<<<<<<< SEARCH\n${codeBlock(r, between(r, 80, 600))}\n=======\n${codeBlock(r, between(r, 80, 800))}\n>>>>>>> REPLACE\n\`\`\`\n\n`;
    const write = model.startsWith('anthropic') ? between(r, 0, 3000) : 0;
    const hit = between(r, 0, 20_000);
    const input = between(r, 500, 30_000);
    const out = between(r, 50, 2000);
    const sent = formatTokens(input + write + hit);
    const w = formatTokens(write);
    const h = formatTokens(hit);
    const o = formatTokens(out);
    // The record counts what aider printed, rounded as printed: "sent" less the cache figures.
    const [ps, pw, ph, po] = [parsed(sent), write ? parsed(w) : 0, hit ? parsed(h) : 0, parsed(o)];
    countTokens(stats, Math.max(0, ps - pw - ph), po, ph, pw);
    const report = `Tokens: ${sent} sent${write ? `, ${w} cache write` : ''}${hit ? `, ${h} cache hit` : ''}, ${o} received.`;
    const cost = `Cost: $${(out * 15e-6).toFixed(4)} message, $0.10 session.`;
    text += write && hit ? tool(report, cost) : tool(`${report} ${cost}`);
    text += tool(`Applied edit to ${file}`, `Commit ${between(r, 0x1000000, 0xfffffff).toString(16)} ${sentence(r, 5)}`);
  }
  return { text, id };
}

/** Writes aider histories under `<home>/code/aider-<n>/` until `target` bytes. */
export function generateAider(home, target, r, now) {
  const stats = { ...newStats(), projects: [] };
  fillTo(stats, target, r, cap, (size, i) => {
    const repo = join(home, 'code', `aider-${i}`);
    const runs = between(r, 1, 12);
    let ms = now - 10 * 86_400_000 + Math.floor(r() * 86_400_000);
    let body = '';
    for (let k = 0; k < runs; k++) {
      const one = run(r, ms, size / runs, stats);
      body += one.text;
      stats.sessions++;
      stats.ids.push(one.id);
      ms += between(r, 600_000, 20 * 3_600_000);
    }
    stats.bytes += writeWhole(join(repo, '.aider.chat.history.md'), body);
    stats.files++;
    stats.projects.push(repo);
  });
  return stats;
}
