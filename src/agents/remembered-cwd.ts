// The working directory a reader derives from a session file's head (`DiscoveryFs.derive`), checked
// as the discovery cache hands it back: `{ cwd }`, null for a file that names none.

/** A remembered `{ cwd }`, or undefined for any other shape (then it is derived again). */
export function decodeCwd(value: unknown): { cwd: string | null } | undefined {
  if (typeof value !== 'object' || value === null || !('cwd' in value)) return undefined;
  return value.cwd === null || typeof value.cwd === 'string' ? { cwd: value.cwd } : undefined;
}
