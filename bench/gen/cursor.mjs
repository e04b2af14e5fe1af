// Cursor Agent transcripts (the shape src/agents/cursor reads, as jcontini/agentos-community's
// reader documents it): `.cursor/projects/<project>/agent-transcripts/<id>/<id>.jsonl`, one
// `{role, message: {content: [{type: "text", text}]}}` per line, prompts inside `<user_query>` after
// the context Cursor adds. The transcripts state no tokens.
import { join } from 'node:path';
import { LineFile, between, fillTo, newStats, sentence, uuid } from './common.mjs';

const cap = 2_000_000;

const line = (role, text) => ({ role, message: { content: [{ type: 'text', text }] } });

/** Writes Cursor transcripts under `<home>/.cursor/projects` until `target` bytes. */
export function generateCursor(home, target, r) {
  const stats = newStats();
  fillTo(stats, target, r, cap, (size, i) => {
    const id = uuid(r);
    const f = new LineFile(join(home, '.cursor', 'projects', `home-bench-code-project-${i % 20}`, 'agent-transcripts', id, `${id}.jsonl`));
    while (f.size < size) {
      const context = r() < 0.5 ? `<user_info>\nOS: linux\nShell: bash\n</user_info>\n<open_files>${sentence(r, 12)}</open_files>\n` : '';
      f.line(line('user', `${context}<user_query>\n${sentence(r, between(r, 8, 50))}\n</user_query>`));
      const steps = between(r, 1, 4);
      for (let s = 0; s < steps; s++) f.line(line('assistant', sentence(r, between(r, 20, 300))));
    }
    f.close();
    stats.files++;
    stats.bytes += f.size;
    stats.sessions++;
    stats.ids.push(id);
  });
  return stats;
}
