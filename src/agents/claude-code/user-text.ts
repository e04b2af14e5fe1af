// What the person typed on a Claude Code user line, with the harness's machinery taken out
// (seed 003 "What a session becomes": system reminders, slash-command wrappers, local-command output,
// `!` shell output, task notifications).

/** Wrappers whose whole content is machinery. */
const droppedTags = [
  'system-reminder',
  'local-command-stdout',
  'local-command-stderr',
  'local-command-caveat',
  'bash-stdout',
  'bash-stderr',
  'task-notification',
  'command-message',
  'command-contents',
  'user-prompt-submit-hook',
] as const;

/** Wrappers that carry something the person typed, kept in a plain form. */
const keptTags = ['command-name', 'command-args', 'bash-input'] as const;

type Tag = (typeof droppedTags)[number] | (typeof keptTags)[number];
const allTags: readonly Tag[] = [...droppedTags, ...keptTags];
const dropped: ReadonlySet<string> = new Set(droppedTags);

/** Claude Code appends this to a background task's notification. */
const readOutputHint = 'Read the output file to retrieve the result:';
export const interruptPrefix = '[Request interrupted by user';

export interface StrippedText {
  /** What is left, trimmed; '' when the line was only machinery. */
  text: string;
  /** The text is Claude Code's interruption marker, an event rather than something typed. */
  interrupted: boolean;
  /** Bodies of `<task-notification>` blocks met on the way (they carry subagent status). */
  notifications: string[];
}

function tagAt(text: string, at: number): Tag | undefined {
  for (const tag of allTags) {
    if (text.startsWith(tag, at + 1) && text.charCodeAt(at + 1 + tag.length) === 62 /* > */) return tag;
  }
  return undefined;
}

/**
 * Strips machinery from one user text.
 * Example: stripUserText('<command-name>/review</command-name><command-args>src</command-args>').text === '/review src'
 */
export function stripUserText(raw: string): StrippedText {
  const notifications: string[] = [];
  let text = raw;
  if (raw.includes('<')) {
    const kept: string[] = [];
    let command: string | undefined;
    let args: string | undefined;
    let removed = false;
    let from = 0;
    let i = raw.indexOf('<');
    while (i !== -1) {
      const tag = tagAt(raw, i);
      const close = tag === undefined ? -1 : raw.indexOf(`</${tag}>`, i + tag.length + 2);
      if (tag === undefined || close === -1) {
        i = raw.indexOf('<', i + 1);
        continue;
      }
      kept.push(raw.slice(from, i));
      const body = raw.slice(i + tag.length + 2, close);
      if (tag === 'command-name') command = body.trim();
      else if (tag === 'command-args') args = body.trim();
      else if (tag === 'bash-input') kept.push(`! ${body.trim()}`);
      else if (tag === 'task-notification') notifications.push(body);
      removed = removed || dropped.has(tag);
      from = close + tag.length + 3;
      i = raw.indexOf('<', from);
    }
    if (from > 0) {
      kept.push(raw.slice(from));
      text = kept.join('');
      if (command !== undefined && command !== '') {
        const name = command.startsWith('/') ? command : `/${command}`;
        text = `${args !== undefined && args !== '' ? `${name} ${args}` : name}\n${text}`;
      }
      if (notifications.length > 0) {
        const hint = text.indexOf(readOutputHint);
        if (hint !== -1) {
          const eol = text.indexOf('\n', hint);
          text = text.slice(0, hint) + (eol === -1 ? '' : text.slice(eol));
        }
      }
      if (removed) text = text.replace(/\n[ \t]*\n(?:[ \t]*\n)+/g, '\n\n');
    }
  }
  text = text.trim();
  return { text, interrupted: text.startsWith(interruptPrefix), notifications };
}

export interface TaskNotification {
  taskId?: string;
  toolUseId?: string;
  status?: string;
}

function field(body: string, tag: string): string | undefined {
  const open = body.indexOf(`<${tag}>`);
  if (open === -1) return undefined;
  const from = open + tag.length + 2;
  const close = body.indexOf(`</${tag}>`, from);
  if (close === -1) return undefined;
  const value = body.slice(from, close).trim();
  return value === '' ? undefined : value;
}

/** The ids and status a `<task-notification>` body names. */
export function parseNotification(body: string): TaskNotification {
  const n: TaskNotification = {};
  const taskId = field(body, 'task-id');
  const toolUseId = field(body, 'tool-use-id');
  const status = field(body, 'status');
  if (taskId !== undefined) n.taskId = taskId;
  if (toolUseId !== undefined) n.toolUseId = toolUseId;
  if (status !== undefined) n.status = status;
  return n;
}

/** Every `<task-notification>` body in a text (queue operations and attachments carry them too). */
export function notificationBodies(text: string): string[] {
  const out: string[] = [];
  let at = text.indexOf('<task-notification>');
  while (at !== -1) {
    const from = at + '<task-notification>'.length;
    const close = text.indexOf('</task-notification>', from);
    if (close === -1) break;
    out.push(text.slice(from, close));
    at = text.indexOf('<task-notification>', close);
  }
  return out;
}
