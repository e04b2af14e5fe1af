// Appends whole lines to a JSONL file with one write(2) per line, so every line is in the kernel
// (visible to tail readers, surviving a crash of this process) before the call returns.
import { closeSync, fdatasyncSync } from 'node:fs';
import { SessionLogError, reason } from './errors.js';
import { writeAllSync as writeAll } from '../fs/atomic-write.js';
import { openPrivateAppend } from './private-fs.js';

export class LineAppender {
  private fd: number | null;

  /** Opens (creating 0600) `path` for appending. Throws the raw fs error for the caller to wrap. */
  constructor(readonly path: string) {
    this.fd = openPrivateAppend(path);
  }

  /** Writes `line` plus a newline as a single write (O_APPEND keeps concurrent writers' lines whole). */
  append(line: string): void {
    if (this.fd === null) throw new SessionLogError('Closed', `${this.path} is closed; open the session again to write to it`);
    try {
      writeAll(this.fd, `${line}\n`);
    } catch (error) {
      throw new SessionLogError('WriteFailed', `cannot append to ${this.path}: ${reason(error)} (check free space and permissions)`, {
        cause: error,
      });
    }
  }

  /** Forces the appended lines to stable storage (used before deleting what an older line named). */
  sync(): void {
    if (this.fd === null) return;
    try {
      fdatasyncSync(this.fd);
    } catch (error) {
      throw new SessionLogError('WriteFailed', `cannot sync ${this.path}: ${reason(error)}`, { cause: error });
    }
  }

  close(): void {
    if (this.fd === null) return;
    const fd = this.fd;
    this.fd = null;
    closeSync(fd);
  }

  get closed(): boolean {
    return this.fd === null;
  }
}
