// Per-command runtime logs `<nonce>_<32 hex>_{stdout,stderr,pty}.log` in the session folder. Each
// is created exclusively and never through a symlink, because the nonce is chosen by the model:
// a file or link planted at the predicted path makes creation fail and nothing is written.
import { randomUUID } from 'node:crypto';
import { closeSync } from 'node:fs';
import { join } from 'node:path';
import { SessionLogError, reason } from './errors.js';
import { writeAllSync as writeAll } from '../fs/atomic-write.js';
import { openPrivateExclusive } from './private-fs.js';

export const runtimeStreams = ['stdout', 'stderr', 'pty'] as const;
export type RuntimeStream = (typeof runtimeStreams)[number];

/** The 32-hex-digit random component (a UUID v4 without dashes). */
export function runtimeRandom(): string {
  return randomUUID().replaceAll('-', '');
}

const noncePattern = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
const randomPattern = /^[0-9a-f]{32}$/;

export function runtimeLogName(nonce: string, random: string, stream: RuntimeStream): string {
  if (!noncePattern.test(nonce))
    throw new SessionLogError(
      'InvalidArgument',
      `runtime log nonce ${JSON.stringify(nonce)} must be 1-64 letters, digits, "_" or "-", starting with a letter or digit`,
    );
  if (!randomPattern.test(random))
    throw new SessionLogError('InvalidArgument', `runtime log random part must be 32 lowercase hex digits, got ${JSON.stringify(random)}`);
  return `${nonce}_${random}_${stream}.log`;
}

/** An open runtime log; write to it, then close it. */
export class RuntimeLog {
  private fd: number | null;

  private constructor(
    readonly path: string,
    fd: number,
  ) {
    this.fd = fd;
  }

  /** Creates `<dir>/<nonce>_<random>_<stream>.log`; UnsafeRuntimeLog when anything already sits there. */
  static create(dir: string, nonce: string, stream: RuntimeStream, random: string = runtimeRandom()): RuntimeLog {
    const path = join(dir, runtimeLogName(nonce, random, stream));
    try {
      return new RuntimeLog(path, openPrivateExclusive(path));
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code;
      if (code === 'EEXIST' || code === 'ELOOP') {
        throw new SessionLogError(
          'UnsafeRuntimeLog',
          `refusing to write runtime log ${path}: something (possibly a planted symlink) already exists there; nothing was written. Remove it or use a fresh nonce`,
          { cause: error },
        );
      }
      throw new SessionLogError('WriteFailed', `cannot create runtime log ${path}: ${reason(error)}`, { cause: error });
    }
  }

  write(text: string | Buffer): void {
    if (this.fd === null) throw new SessionLogError('Closed', `runtime log ${this.path} is closed`);
    try {
      writeAll(this.fd, text);
    } catch (error) {
      throw new SessionLogError('WriteFailed', `cannot write runtime log ${this.path}: ${reason(error)}`, { cause: error });
    }
  }

  close(): void {
    if (this.fd === null) return;
    const fd = this.fd;
    this.fd = null;
    closeSync(fd);
  }
}

/** Creates the log and writes `content` in one go (the usual case: output captured whole). */
export function writeRuntimeLog(dir: string, nonce: string, stream: RuntimeStream, content: string | Buffer, random?: string): string {
  const log = RuntimeLog.create(dir, nonce, stream, random);
  try {
    log.write(content);
  } finally {
    log.close();
  }
  return log.path;
}
