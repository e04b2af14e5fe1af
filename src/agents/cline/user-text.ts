// What the person typed, out of the text the extensions send as the user: Cline and Roo Code wrap
// it in a tag (`<task>`, `<feedback>`, `<answer>`, `<user_message>`) and surround it with context
// they inject themselves (`<environment_details>`, attached files, reminders, resumption notes).

/** The tags typed text is wrapped in (Cline responses.ts and task/index.ts; Roo Code Task.ts and tools). */
const typedTag = /<(task|feedback|answer|user_message)>\n?([\s\S]*?)\n?<\/\1>/g;

/** The typed text in a block, each tagged part trimmed, empty ones dropped. */
export function typedTexts(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(typedTag)) {
    const t = (m[2] ?? '').trim();
    if (t !== '') out.push(t);
  }
  return out;
}

/** How much of a tool's result is looked at for the person quoted in it. */
export const resultHeadChars = 600;

/** Where a tool's result starts quoting the person (answers, feedback) within its head, or -1. */
export function quoteInResult(output: string): number {
  return output.slice(0, resultHeadChars).search(/<(feedback|answer|user_message)>/);
}

/** The typed text in a tool's result, where the result quotes the person near its start. */
export function typedInResult(output: string): string[] {
  const at = quoteInResult(output);
  return at === -1 ? [] : typedTexts(output.slice(at)).slice(0, 1);
}

const environmentOpen = '<environment_details>';

export function isEnvironment(text: string): boolean {
  return text.trimStart().startsWith(environmentOpen);
}

/**
 * The working directory an environment block names: Cline's "# Current Working Directory (<dir>)
 * Files", Roo Code's "# Current Workspace Directory (<dir>) Files".
 */
export function environmentCwd(text: string): string | undefined {
  const m = /# Current (?:Working|Workspace) Directory \(([^\n]+?)\) Files/.exec(text);
  return m?.[1];
}

/** Cline's resumption note names the directory the task resumed in. */
export function resumedCwd(text: string): string | undefined {
  return /The current working directory is now '([^'\n]+)'/.exec(text)?.[1];
}

/** Blocks the extensions inject into the user's message (never typed), by how they begin. */
const injectedStarts = [
  '[TASK RESUMPTION]',
  '(The user did not provide a new message',
  'Files attached by the user:',
  '# task_progress',
  '# TODO LIST UPDATE REQUIRED',
  '[ERROR] You did not use a tool',
  '<explicit_instructions',
  'The user has accepted the condensed conversation summary',
  '<file_content',
  '<folder_content',
];

export function isInjected(text: string): boolean {
  const t = text.trimStart();
  return injectedStarts.some((s) => t.startsWith(s));
}

/** A tool's result written as text: `[read_file for 'a.ts'] Result:` and the output after it. */
export function resultHeader(text: string): { rest: string } | null {
  const m = /^\[[^\]\n]*\](?: Result:|\s*Result:)/.exec(text.trimStart());
  if (m === null) return null;
  return {
    rest: text
      .trimStart()
      .slice(m[0].length)
      .replace(/^[ \t]*\n?/, ''),
  };
}
