// Errors of the names overlay, each with a code a caller can branch on.

export const namesErrorCodes = ['CorruptOverlay', 'UnknownSource'] as const;
export type NamesErrorCode = (typeof namesErrorCodes)[number];

export class NamesError extends Error {
  constructor(
    readonly code: NamesErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'NamesError';
  }
}
