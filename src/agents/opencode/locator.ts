// How a database session is named where a file path is expected: `<database path>#<session id>`.

export interface DatabaseLocator {
  database: string;
  sessionId: string;
}

export function databaseLocator(database: string, sessionId: string): string {
  return `${database}#${sessionId}`;
}

/** Splits `<…/opencode.db>#<id>`; undefined for any other path. */
export function parseDatabaseLocator(path: string): DatabaseLocator | undefined {
  const hash = path.lastIndexOf('#');
  if (hash <= 0) return undefined;
  const database = path.slice(0, hash);
  const sessionId = path.slice(hash + 1);
  if (!/\.db$/i.test(database) || sessionId === '' || sessionId.includes('/')) return undefined;
  return { database, sessionId };
}
