// A line of a session file that could not be used, named by file and 1-based line number.

export interface LineProblem {
  file: string;
  line: number;
  reason: string;
}

export function describeProblem(p: LineProblem): string {
  return `${p.file}:${p.line}: ${p.reason}`;
}
