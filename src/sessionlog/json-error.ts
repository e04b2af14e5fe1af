// Finds where a JSON text stops being valid, so a corrupt file is reported by line and column
// (V8's own messages do not always carry a position).

const ws = new Set([0x20, 0x09, 0x0a, 0x0d]);

class Bad extends Error {
  constructor(readonly at: number) {
    super('bad json');
  }
}

function scan(t: string): void {
  let i = 0;
  const skip = (): void => {
    while (i < t.length && ws.has(t.charCodeAt(i))) i++;
  };
  const lit = (word: string): void => {
    if (t.startsWith(word, i)) i += word.length;
    else throw new Bad(i);
  };
  const string = (): void => {
    i++;
    for (;;) {
      if (i >= t.length) throw new Bad(i);
      const c = t.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return;
      }
      if (c < 0x20) throw new Bad(i);
      if (c === 0x5c) {
        const e = t[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(t.slice(i + 2, i + 6))) throw new Bad(i);
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else throw new Bad(i);
      } else i++;
    }
  };
  const number = (): void => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(t.slice(i, i + 400));
    if (m === null) throw new Bad(i);
    i += m[0].length;
  };
  const value = (depth: number): void => {
    if (depth > 10_000) throw new Bad(i);
    skip();
    const c = t[i];
    if (c === '{') {
      i++;
      skip();
      if (t[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        skip();
        if (t[i] !== '"') throw new Bad(i);
        string();
        skip();
        if (t[i] !== ':') throw new Bad(i);
        i++;
        value(depth + 1);
        skip();
        if (t[i] === ',') i++;
        else if (t[i] === '}') {
          i++;
          return;
        } else throw new Bad(i);
      }
    } else if (c === '[') {
      i++;
      skip();
      if (t[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        value(depth + 1);
        skip();
        if (t[i] === ',') i++;
        else if (t[i] === ']') {
          i++;
          return;
        } else throw new Bad(i);
      }
    } else if (c === '"') string();
    else if (c === 't') lit('true');
    else if (c === 'f') lit('false');
    else if (c === 'n') lit('null');
    else number();
  };
  value(0);
  skip();
  if (i < t.length) throw new Bad(i);
}

/** The UTF-16 offset of the first syntax error in `text`, or null when it is valid JSON. */
export function jsonErrorOffset(text: string): number | null {
  try {
    scan(text);
    return null;
  } catch (error) {
    return error instanceof Bad ? error.at : 0;
  }
}

/** 1-based line and column of `offset` in `text`. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 0x0a) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}
