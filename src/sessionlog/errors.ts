// The one error root of the session-log library: every failure carries a `code` a caller can
// branch on and a message that says what to do about it.

export const sessionLogErrorCodes = [
  'OpenFailed',
  'Closed',
  'WriteFailed',
  'InvalidArgument',
  'SessionNotFound',
  'AmbiguousSession',
  'PathOutsideLogs',
  'CorruptMeta',
  'CorruptConversation',
  'UnsafeRuntimeLog',
  'LockTimeout',
] as const;
export type SessionLogErrorCode = (typeof sessionLogErrorCodes)[number];

export class SessionLogError extends Error {
  constructor(
    readonly code: SessionLogErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'SessionLogError';
  }
}

/** The message of an unknown thrown value, for wrapping. */
export function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
