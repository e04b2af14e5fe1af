// The dashboard's keyboard map (design brief "Interaction"): one pure function from a key press to
// an action, so the table the `?` overlay shows and the handler cannot drift apart.

export const keyActions = [
  'palette',
  'focus-search',
  'next-prompt',
  'previous-prompt',
  'top',
  'latest',
  'toggle-steps',
  'escape',
  'help',
] as const;
export type KeyAction = (typeof keyActions)[number];

export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  /** True while the focus is in a text field: plain letters then belong to the field. */
  inField: boolean;
}

/** The table shown by `?`, in the order the brief lists it. */
export const keyTable: readonly (readonly [string, string])[] = [
  ['/', 'focus the search box'],
  ['⌘K / Ctrl-K', 'go to a session or message'],
  ['↑ ↓ / Enter', 'move in the list / open'],
  ['j  k', 'next / previous prompt in the transcript'],
  ['g  G', 'top / latest'],
  ['s', 'show or hide the steps of the focused subagent'],
  ['Esc', 'close, clear the search, back'],
  ['?', 'this table'],
];

/** The action a key press asks for, or null when the page should let the browser have it. */
export function keyAction(press: KeyPress): KeyAction | null {
  if ((press.ctrlKey || press.metaKey) && !press.altKey && press.key.toLowerCase() === 'k') return 'palette';
  if (press.key === 'Escape') return 'escape';
  if (press.inField || press.ctrlKey || press.metaKey || press.altKey) return null;
  switch (press.key) {
    case '/':
      return 'focus-search';
    case 'j':
      return 'next-prompt';
    case 'k':
      return 'previous-prompt';
    case 'g':
      return 'top';
    case 'G':
      return 'latest';
    case 's':
      return 'toggle-steps';
    case '?':
      return 'help';
    default:
      return null;
  }
}
