// Custody's typed errors: a `code` a caller can branch on and a message that says what to do.

import { AgentlogError, type ErrorKind } from '../errors.js';

export const custodyErrorCodes = [
  'SessionNotFound',
  'SubAgentNotFound',
  'PageSourceMoved',
  'InvalidPageSize',
  'InvalidPageToken',
  'InvalidSessionId',
  'InstallationKeyTaken',
  'InvalidInstallationName',
  'CorruptTranscript',
  'NotPageable',
  'CustodyBusy',
  'UnsafePath',
  'IOError',
] as const;
export type CustodyErrorCode = (typeof custodyErrorCodes)[number];

const kindOf: Record<CustodyErrorCode, ErrorKind> = {
  SessionNotFound: 'not_found',
  SubAgentNotFound: 'not_found',
  PageSourceMoved: 'usage',
  InvalidPageSize: 'usage',
  InvalidPageToken: 'usage',
  InvalidSessionId: 'usage',
  InstallationKeyTaken: 'usage',
  InvalidInstallationName: 'usage',
  CorruptTranscript: 'failed',
  NotPageable: 'usage',
  CustodyBusy: 'conflict',
  UnsafePath: 'failed',
  IOError: 'failed',
};

export class CustodyError extends AgentlogError<CustodyErrorCode> {
  constructor(
    code: CustodyErrorCode,
    message: string,
    /** The file or folder the error is about, where there is one. */
    readonly path?: string,
    options?: { cause?: unknown },
  ) {
    super(code, kindOf[code], message, options);
    this.name = 'CustodyError';
  }
}

export function isCustodyError(error: unknown, code?: CustodyErrorCode): error is CustodyError {
  return error instanceof CustodyError && (code === undefined || error.code === code);
}

/** The largest page `lastEntries` and `entriesBefore` accept. */
export const maxPageSize = 10_000;

/** Strips C0, DEL and C1 control characters, then cuts to 40 characters, so a hostile id cannot garble a terminal. */
export function printable(value: string, max = 40): string {
  const clean = value.replace(/[\u0000-\u001f\u007f-\u009f]/g, '');
  return clean.length > max ? `${clean.slice(0, max)}…` : clean;
}

export const custodyErrors = {
  sessionNotFound: (id: string, where: string): CustodyError =>
    new CustodyError(
      'SessionNotFound',
      `no session "${printable(id)}" in ${where} or its kept copy; \`agentlog scan\` lists the sessions agentlog can see`,
    ),
  subAgentNotFound: (id: string, key: string): CustodyError =>
    new CustodyError(
      'SubAgentNotFound',
      `session "${printable(id)}" has no sub-agent linked to "${printable(key)}" (give the launching tool_use id or the sub-agent id)`,
    ),
  pageSourceMoved: (id: string, now: string): CustodyError =>
    new CustodyError(
      'PageSourceMoved',
      `session "${printable(id)}" now reads from ${now}, not the file this page token was minted against; restart from the latest page (agentlog tail)`,
      now,
    ),
  invalidPageSize: (n: number): CustodyError =>
    new CustodyError(
      'InvalidPageSize',
      `page size ${Number.isFinite(n) ? n : String(n)} is out of range: give a whole number from 1 to ${maxPageSize}`,
    ),
  invalidPageToken: (why: string): CustodyError =>
    new CustodyError('InvalidPageToken', `this page token cannot be used (${why}); restart from the latest page (agentlog tail)`),
  invalidSessionId: (value: string): CustodyError =>
    new CustodyError(
      'InvalidSessionId',
      `"${printable(value)}" is not a session id: ids are letters, digits, '.', '_' and '-' (no '/', '..', NUL or control characters)`,
    ),
  corruptTranscript: (path: string, why: string): CustodyError =>
    new CustodyError('CorruptTranscript', `${path} cannot be paged: ${why}; \`agentlog show\` still reads it whole`, path),
  io: (path: string, what: string, cause: unknown): CustodyError =>
    new CustodyError(
      'IOError',
      `cannot ${what} ${path}: ${cause instanceof Error ? cause.message : String(cause)}; check that it exists and you may read it`,
      path,
      { cause },
    ),
  unsafePath: (path: string, why: string): CustodyError =>
    new CustodyError('UnsafePath', `refusing ${path}: ${why}; custody never follows symbolic links (remove the link and keep again)`, path),
};

/** True when the error (or one in its cause chain) says a file is gone: the vendor pruned it mid-read. */
export function isVanished(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e !== undefined && e !== null && depth < 8; depth++) {
    const code = (e as { code?: unknown }).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
