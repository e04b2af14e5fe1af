// The Intendant reader's errors: only I/O on the session's spine is thrown (content never is).
import { AgentlogError } from '../../errors.js';

export const intendantErrorCodes = ['SpineUnreadable'] as const;
export type IntendantErrorCode = (typeof intendantErrorCodes)[number];

export class IntendantError extends AgentlogError<IntendantErrorCode> {
  constructor(code: IntendantErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, 'failed', message, options);
    this.name = 'IntendantError';
  }
}
