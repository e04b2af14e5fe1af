// Errors of finding and reading sessions, each with a code a caller can branch on.

export const scanErrorCodes = ['PathNotFound', 'NotASession', 'SessionNotFound', 'AmbiguousSession', 'IOError'] as const;
export type ScanErrorCode = (typeof scanErrorCodes)[number];

export class ScanError extends Error {
  constructor(
    readonly code: ScanErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ScanError';
  }
}
