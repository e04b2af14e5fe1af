// The one error root: every error agentlog raises on purpose carries a `code` a caller can branch on
// and a `kind` that alone decides the exit code (and, in the servers, the HTTP status).

export const errorKinds = ['usage', 'not_found', 'conflict', 'failed'] as const;
/**
 * - `usage`: the request itself cannot be served as given (bad flag, bad query, ambiguous id).
 * - `not_found`: what the request names does not exist.
 * - `conflict`: another process holds what is needed (a lock, a busy index); trying again may work.
 * - `failed`: the request was fine but the work failed (I/O, a corrupt store).
 */
export type ErrorKind = (typeof errorKinds)[number];

export class AgentlogError<Code extends string = string> extends Error {
  constructor(
    readonly code: Code,
    readonly kind: ErrorKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'AgentlogError';
  }
}

export function isAgentlogError(error: unknown): error is AgentlogError {
  return error instanceof AgentlogError;
}

/** Exit codes: 0 ok, 1 something failed while running, 2 the request itself was wrong. */
export const exitCodes = { ok: 0, failed: 1, usage: 2 } as const;

const exitByKind: Record<ErrorKind, number> = { usage: 2, not_found: 2, conflict: 1, failed: 1 };
const statusByKind: Record<ErrorKind, number> = { usage: 400, not_found: 404, conflict: 409, failed: 500 };

/** The exit code a command ends with for this error: 2 for a request that cannot be served, else 1. */
export function exitCodeOf(error: unknown): number {
  return isAgentlogError(error) ? exitByKind[error.kind] : exitCodes.failed;
}

/** The HTTP status a server answers this error with (an unknown error is a 500). */
export function httpStatusOf(error: unknown): number {
  return isAgentlogError(error) ? statusByKind[error.kind] : 500;
}

/** The message of an unknown thrown value, for wrapping. */
export function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
