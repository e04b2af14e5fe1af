// Pi sessions in the v3 tree layout (research intendant.md §3.5, corpus pi/large-session.jsonl for
// the message shapes): `sessions/--<cwd>--/<timestamp>_<uuid>.jsonl`, a session header, then entries
// with `id`/`parentId`. Some sessions go back to an earlier point and continue, which leaves the old
// continuation in the file as an abandoned branch; every assistant message states usage and cost.
import { join } from 'node:path';
import {
  LineFile,
  between,
  codeBlock,
  countTokens,
  fillTo,
  hex,
  newStats,
  outputSize,
  pick,
  projectCwd,
  sentence,
  uuid,
  words,
} from './common.mjs';

/** Pi's bounds: a file ≤ 128 MiB and ≤ 200,000 lines. */
const cap = 16_000_000;
const models = [
  { provider: 'anthropic', api: 'anthropic-messages', model: 'claude-sonnet-4-5', price: [3e-6, 15e-6, 0.3e-6, 3.75e-6] },
  { provider: 'openai', api: 'openai-responses', model: 'gpt-5.1-codex', price: [1.25e-6, 10e-6, 0.125e-6, 0] },
];

function usageOf(r, m) {
  const u = { input: between(r, 3, 4000), output: between(r, 20, 1200), cacheRead: between(r, 0, 90_000), cacheWrite: between(r, 0, 4000) };
  const [pi, po, pr, pw] = m.price;
  const cost = { input: u.input * pi, output: u.output * po, cacheRead: u.cacheRead * pr, cacheWrite: u.cacheWrite * pw };
  cost.total = cost.input + cost.output + cost.cacheRead + cost.cacheWrite;
  return { ...u, totalTokens: u.input + u.output + u.cacheRead + u.cacheWrite, cost };
}

/** Writes one session file of about `target` bytes. */
function writeSession(path, id, cwd, startMs, target, r, stats) {
  const f = new LineFile(path);
  let ms = startMs;
  const at = () => new Date((ms += between(r, 200, 20_000))).toISOString();
  let parent = null;
  let m = models[0];
  const entry = (obj) => {
    const e = { type: obj.type, id: hex(r, 8), parentId: parent, timestamp: at(), ...obj };
    f.line(e);
    parent = e.id;
    return e.id;
  };
  f.line({ type: 'session', version: 3, id, timestamp: new Date(ms).toISOString(), cwd });
  entry({ type: 'model_change', provider: m.provider, modelId: m.model });
  entry({ type: 'thinking_level_change', thinkingLevel: 'medium' });
  let branched = false;
  // After going back, one more exchange is written so the file's last entry is on the new branch.
  let owed = false;
  while (f.size < target || owed) {
    owed = false;
    // Going back: the next prompt continues from an earlier answer, abandoning what followed it.
    const answerBefore = parent;
    if (r() < 0.05) {
      m = m === models[0] ? models[1] : models[0];
      entry({ type: 'model_change', provider: m.provider, modelId: m.model });
    }
    const ask = sentence(r, between(r, 8, 50));
    entry({ type: 'message', message: { role: 'user', content: [{ type: 'text', text: ask }], timestamp: ms } });
    const steps = between(r, 1, 5);
    for (let s = 0; s <= steps; s++) {
      const final = s === steps;
      const content = [];
      if (r() < 0.5) content.push({ type: 'thinking', thinking: sentence(r, between(r, 10, 60)), thinkingSignature: hex(r, 120) });
      if (final || r() < 0.4) content.push({ type: 'text', text: sentence(r, between(r, 20, 140)) });
      let call;
      if (!final) {
        const tool = pick(r, ['bash', 'bash', 'read', 'edit', 'write']);
        const file = `src/${pick(r, words)}.ts`;
        const args =
          tool === 'bash'
            ? { command: `rg -n ${pick(r, words)} src` }
            : tool === 'read'
              ? { path: file }
              : tool === 'edit'
                ? { path: file, oldText: codeBlock(r, 150), newText: codeBlock(r, 200) }
                : { path: file, content: codeBlock(r, 600) };
        call = { type: 'toolCall', id: `toolu_${hex(r, 24)}`, name: tool, arguments: args };
        content.push(call);
      }
      const usage = usageOf(r, m);
      countTokens(stats, usage.input, usage.output, usage.cacheRead, usage.cacheWrite);
      entry({
        type: 'message',
        message: {
          role: 'assistant',
          content,
          api: m.api,
          provider: m.provider,
          model: m.model,
          usage,
          stopReason: final ? 'stop' : 'toolUse',
          timestamp: ms,
        },
      });
      if (call !== undefined) {
        const failed = call.name === 'bash' && r() < 0.08;
        const text = codeBlock(r, outputSize(r)) + (failed ? '\n\nCommand exited with code 1' : '');
        entry({
          type: 'message',
          message: {
            role: 'toolResult',
            toolCallId: call.id,
            toolName: call.name,
            content: [{ type: 'text', text }],
            isError: failed,
            timestamp: ms,
          },
        });
      }
    }
    if (!branched && answerBefore !== null && f.size > target / 3 && r() < 0.5) {
      // /tree back to before the last exchange: it stays in the file, off the active branch.
      branched = true;
      owed = true;
      parent = answerBefore;
      if (r() < 0.5) entry({ type: 'branch_summary', fromId: answerBefore, summary: sentence(r, 30) });
    }
  }
  f.close();
  return f.size;
}

/** Writes Pi sessions under `<home>/.pi/agent` until `target` bytes. */
export function generatePi(home, target, r, now) {
  const stats = newStats();
  fillTo(stats, target, r, cap, (size, i) => {
    const cwd = projectCwd(i);
    const id = uuid(r);
    const startMs = now - 10 * 86_400_000 + Math.floor(r() * 9.5 * 86_400_000);
    const stamp = new Date(startMs).toISOString().replace(/[:.]/g, '-');
    const dir = join(home, '.pi', 'agent', 'sessions', `--${cwd.slice(1).replace(/\//g, '-')}--`);
    stats.bytes += writeSession(join(dir, `${stamp}_${id}.jsonl`), id, cwd, startMs, size, r, stats);
    stats.files++;
    stats.sessions++;
    stats.ids.push(id);
  });
  return stats;
}
