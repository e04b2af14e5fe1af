// The whole-body check: the serialised bytes read once more as a whole, the way a server that
// redacts a body would. JSON's two-character escapes are read as what they stand for (a `\n` is a
// line break, so `^KEY=` rules still see line starts, and the `n` of `\n` never joins a key run),
// and a string's own quotes as line breaks, so no finding straddles a key and the next value;
// offsets stay those of the serialised text.
import type { Finding } from './classes.js';
import { scanText } from './scan.js';

function unescapeInPlace(serialised: string): string {
  return serialised.replace(/\\(?:u[0-9a-fA-F]{4}|["\\/bfnrt])|"/g, (esc) => {
    // A quote not escaped is a string's edge: read as a line break, no finding straddles two values.
    if (esc === '"') return '\n';
    switch (esc[1]) {
      case 'n':
      case 'r':
        return '\n\n';
      case 't':
        return '\t\t';
      case '"':
      case '\\':
      case '/':
        return esc;
      default:
        return ' '.repeat(esc.length);
    }
  });
}

/** Every secret still in a serialised body (an empty list means it is clean). */
export function findSecrets(serialised: string): Finding[] {
  return scanText(unescapeInPlace(serialised));
}
