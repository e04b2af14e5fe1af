// Where Goose keeps sessions: its data directory (`$XDG_DATA_HOME/goose`, else
// `~/.local/share/goose`; config/paths.rs) holds `sessions/sessions.db` and, from versions before
// the database, `sessions/<id>.jsonl`. (`GOOSE_PATH_ROOT`, which moves every Goose directory under
// one root, is not read: its unset value is not a path.)
import { join } from 'node:path';
import type { HomeLookup } from '../types.js';

export const databaseName = 'sessions.db';

export function gooseHomes(lookup: HomeLookup): string[] {
  const dataHome = lookup.env('XDG_DATA_HOME') ?? join(lookup.homedir, '.local', 'share');
  return [join(dataHome, 'goose')];
}

export const sessionsDir = (home: string): string => join(home, 'sessions');
