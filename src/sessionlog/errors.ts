// The one error root of the session-log library: every failure carries a `code` a caller can
// branch on and a message that says what to do about it.

import { AgentlogError, type ErrorKind } from '../errors.js';

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
  'SessionBusy',
  'UnsafePath',
] as const;
export type SessionLogErrorCode = (typeof sessionLogErrorCodes)[number];

const kindOf: Record<SessionLogErrorCode, ErrorKind> = {
  OpenFailed: 'failed',
  Closed: 'usage',
  WriteFailed: 'failed',
  InvalidArgument: 'usage',
  SessionNotFound: 'not_found',
  AmbiguousSession: 'usage',
  PathOutsideLogs: 'usage',
  CorruptMeta: 'failed',
  CorruptConversation: 'failed',
  UnsafeRuntimeLog: 'failed',
  LockTimeout: 'conflict',
  SessionBusy: 'conflict',
  UnsafePath: 'failed',
};

export class SessionLogError extends AgentlogError<SessionLogErrorCode> {
  constructor(code: SessionLogErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, kindOf[code], message, options);
    this.name = 'SessionLogError';
  }
}

export { reason } from '../errors.js';
