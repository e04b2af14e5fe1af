// Errors of the names overlay, each with a code a caller can branch on.

import { AgentlogError } from '../errors.js';

export const namesErrorCodes = ['CorruptOverlay', 'UnknownSource'] as const;
export type NamesErrorCode = (typeof namesErrorCodes)[number];

export class NamesError extends AgentlogError<NamesErrorCode> {
  constructor(code: NamesErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, code === 'UnknownSource' ? 'usage' : 'failed', message, options);
    this.name = 'NamesError';
  }
}
