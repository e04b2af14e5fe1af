// The file layer's errors: the helpers that read a raw OS error (its code, whether it means "not
// there", its message), and the typed errors raw ones are wrapped in where they happen, with the path
// they are about and a message that says what to do (an ENOTDIR names the path that is not a folder).
import { AgentlogError, type ErrorKind, reason } from '../errors.js';

/** True for an error that means the path is not there (ENOENT, or ENOTDIR: a file where a folder was). */
export function isNotFound(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/** The error's `code` (`ENOENT`, `EACCES`…), or undefined when it has none. */
export function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * The error's message; for a name that does not exist because it was listed from bytes that are not
 * UTF-8 (a listing decodes them to U+FFFD, and Node opens every string path as UTF-8), the reason.
 */
export function errorMessage(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const path = (error as { path?: unknown }).path;
  if (isNotFound(error) && typeof path === 'string' && path.includes('\ufffd'))
    return `${path}: its name is not valid UTF-8, so it cannot be opened by name (rename it to read what it holds)`;
  return error.message;
}

export const fsErrorCodes = ['LockBusy', 'LockFailed', 'UnsafePath', 'NotAFolder', 'IOFailed', 'Interrupted'] as const;
export type FsErrorCode = (typeof fsErrorCodes)[number];

const kindOf: Record<FsErrorCode, ErrorKind> = {
  LockBusy: 'conflict',
  LockFailed: 'failed',
  UnsafePath: 'failed',
  NotAFolder: 'failed',
  IOFailed: 'failed',
  Interrupted: 'failed',
};

export class FsError extends AgentlogError<FsErrorCode> {
  constructor(
    code: FsErrorCode,
    message: string,
    /** The file or folder the error is about. */
    readonly path: string,
    options?: { cause?: unknown },
  ) {
    super(code, kindOf[code], message, options);
    this.name = 'FsError';
  }
}

/** What to do about an OS error code, in words a user can act on. */
function advice(code: string | undefined, path: string): string {
  switch (code) {
    case 'ENOTDIR':
      return `a part of ${path} is a file, not a folder: move that file away or point the setting at another folder`;
    case 'ENOENT':
      return `${path} does not exist: check the path (and the environment variable that set it)`;
    case 'EACCES':
    case 'EPERM':
      return `permission denied on ${path}: check its owner and mode (agentlog needs to read and write there)`;
    case 'ENOSPC':
    case 'EDQUOT':
      return `no space left for ${path}: free some disk space and run again`;
    case 'EROFS':
      return `${path} is on a read-only filesystem: point agentlog at a writable folder`;
    case 'ELOOP':
      return `${path} is (or passes through) a symbolic link, which agentlog refuses here: replace the link with a real folder or file`;
    case 'EISDIR':
      return `${path} is a folder where a file was expected: move it away`;
    case 'EMFILE':
    case 'ENFILE':
      return `too many open files while using ${path}: raise the limit (ulimit -n) or run again`;
    default:
      return `check that ${path} exists and is readable and writable`;
  }
}

/**
 * Wraps a raw OS error from `action` on `path` (kept as the cause). Already-typed errors pass
 * through. Example: `throw wrapOsError(error, dir, 'create the folder')`.
 */
export function wrapOsError(error: unknown, path: string, action: string): AgentlogError {
  if (error instanceof AgentlogError) return error;
  const code = errorCode(error);
  const typed: FsErrorCode = code === 'ENOTDIR' ? 'NotAFolder' : code === 'ELOOP' ? 'UnsafePath' : 'IOFailed';
  return new FsError(typed, `cannot ${action} ${path} (${code ?? reason(error)}): ${advice(code, path)}`, path, { cause: error });
}
