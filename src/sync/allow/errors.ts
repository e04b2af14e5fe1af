// Sync's error root: one code per way the opt-in, the hub login or an upload can fail.
import { AgentlogError, type ErrorKind } from '../../errors.js';

export const syncErrorCodes = [
  'AllowlistUnreadable',
  'AllowlistTooNew',
  'HubLoginUnreadable',
  'HubLoginMissing',
  'HubUnreachable',
  'HubRefused',
  'NoConfigDir',
] as const;
export type SyncErrorCode = (typeof syncErrorCodes)[number];

export class SyncError extends AgentlogError<SyncErrorCode> {
  constructor(code: SyncErrorCode, kind: ErrorKind, message: string, options?: { cause?: unknown }) {
    super(code, kind, message, options);
    this.name = 'SyncError';
  }
}
