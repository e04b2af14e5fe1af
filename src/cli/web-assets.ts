// Where the web builds sit beside the CLI bundle (dist/cli/main.js → dist/web-export), or beside the
// compiled file when run from dist/cli/commands.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The HTML export's script and styles (dist/web-export); the first candidate when none is built. */
export function exportAssetsDir(): string {
  const candidates = ['../web-export/', '../../web-export/'].map((rel) => fileURLToPath(new URL(rel, import.meta.url)));
  return candidates.find((dir) => existsSync(`${dir}export.js`)) ?? (candidates[0] as string);
}
