// Tool calls written into the assistant's text as XML-ish blocks (Cline before native tool calling,
// Roo Code before 3.3x): `<read_file>\n<path>a.ts</path>\n</read_file>`, parsed the way the
// extensions' own parser reads them (Cline src/core/assistant-message/parse-assistant-message.ts).

/** Tool names of Cline (src/shared/tools.ts, v3.60) and Roo Code (packages/types tool names, v3.52). */
export const xmlToolNames = new Set([
  'execute_command',
  'read_file',
  'write_to_file',
  'replace_in_file',
  'apply_diff',
  'insert_content',
  'search_and_replace',
  'search_files',
  'list_files',
  'list_code_definition_names',
  'browser_action',
  'use_mcp_tool',
  'access_mcp_resource',
  'ask_followup_question',
  'attempt_completion',
  'plan_mode_respond',
  'act_mode_respond',
  'load_mcp_documentation',
  'new_task',
  'condense',
  'summarize_task',
  'report_bug',
  'new_rule',
  'web_fetch',
  'web_search',
  'focus_chain',
  'apply_patch',
  'generate_explanation',
  'use_skill',
  'use_subagents',
  'switch_mode',
  'fetch_instructions',
  'codebase_search',
  'update_todo_list',
  'run_slash_command',
  'generate_image',
]);

/** Parameters whose value may itself hold closing tags: read to the last closing tag (as Cline does). */
const greedyParams = new Set(['content', 'diff', 'input', 'args']);

export interface XmlToolUse {
  name: string;
  params: Record<string, string>;
}

export interface ParsedAssistantText {
  text: string;
  thinking: string[];
  tools: XmlToolUse[];
}

function parseParams(inner: string): Record<string, string> {
  const params: Record<string, string> = {};
  const open = /<([a-z_][a-z0-9_]*)>/g;
  for (let m = open.exec(inner); m !== null; m = open.exec(inner)) {
    const name = m[1] as string;
    const close = `</${name}>`;
    const from = m.index + m[0].length;
    const end = greedyParams.has(name) ? inner.lastIndexOf(close) : inner.indexOf(close, from);
    if (end < from) continue;
    params[name] = inner.slice(from, end).replace(/^\n/, '').replace(/\n$/, '');
    open.lastIndex = end + close.length;
  }
  return params;
}

/** Splits assistant text into prose, `<thinking>` blocks and tool uses (a tool left unclosed is kept). */
export function parseAssistantText(raw: string): ParsedAssistantText {
  const out: ParsedAssistantText = { text: '', thinking: [], tools: [] };
  const prose: string[] = [];
  const tag = /<([a-z_][a-z0-9_]*)>/g;
  let last = 0;
  for (let m = tag.exec(raw); m !== null; m = tag.exec(raw)) {
    const name = m[1] as string;
    if (name !== 'thinking' && !xmlToolNames.has(name)) continue;
    const close = `</${name}>`;
    const from = m.index + m[0].length;
    let end = raw.indexOf(close, from);
    // A tool use cut off by an interruption runs to the end of the text.
    if (end === -1) end = raw.length;
    prose.push(raw.slice(last, m.index));
    const inner = raw.slice(from, end);
    if (name === 'thinking') {
      const t = inner.trim();
      if (t !== '') out.thinking.push(t);
    } else out.tools.push({ name, params: parseParams(inner) });
    last = Math.min(raw.length, end + close.length);
    tag.lastIndex = last;
  }
  prose.push(raw.slice(last));
  out.text = prose
    .join('')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return out;
}
