// Errors of finding and reading sessions, each with a code a caller can branch on.

import { AgentlogError, type ErrorKind } from '../errors.js';

export const scanErrorCodes = ['PathNotFound', 'NotASession', 'SessionNotFound', 'AmbiguousSession', 'IOError'] as const;
export type ScanErrorCode = (typeof scanErrorCodes)[number];

const kindOf: Record<ScanErrorCode, ErrorKind> = {
  PathNotFound: 'not_found',
  NotASession: 'usage',
  SessionNotFound: 'not_found',
  AmbiguousSession: 'usage',
  IOError: 'failed',
};

export class ScanError extends AgentlogError<ScanErrorCode> {
  constructor(code: ScanErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, kindOf[code], message, options);
    this.name = 'ScanError';
  }
}
