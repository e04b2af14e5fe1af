// Aider history text written the way aider's io.py appends it: the run header, `> ` tool lines
// ending in two spaces, `#### ` input lines, and replies as Markdown between blank lines.

export const header = (stamp: string): string => `\n# aider chat started at ${stamp}\n\n`;

/** `tool_output` / `tool_error` / `confirm_ask`: one `> ` line per line of the message. */
export const tool = (...messages: string[]): string =>
  messages
    .flatMap((m) => m.split('\n'))
    .map((l) => `> ${l.trim()}  \n`)
    .join('');

/** `user_input`: the typed lines joined by "  \n#### ". */
export const user = (input: string): string => `\n#### ${input.split('\n').join('  \n#### ')}  \n`;

/** `ai_output`: the reply between blank lines. */
export const ai = (content: string): string => `\n${content.trim()}\n\n`;

export const banner = (model: string, repo = '.git with 12 files'): string =>
  tool(
    '/usr/local/bin/aider',
    'Aider v0.86.2',
    `Main model: ${model} with diff edit format`,
    `Git repo: ${repo}`,
    'Repo-map: using 1024 tokens, auto refresh',
  );
