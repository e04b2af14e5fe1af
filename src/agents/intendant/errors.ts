// The Intendant reader's errors: only I/O on the session's spine is thrown (content never is).
export const intendantErrorCodes = ['SpineUnreadable'] as const;
export type IntendantErrorCode = (typeof intendantErrorCodes)[number];

export class IntendantError extends Error {
  constructor(
    readonly code: IntendantErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'IntendantError';
  }
}
