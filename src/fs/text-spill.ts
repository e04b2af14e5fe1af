// A file-backed `TextSink`: texts are appended to an unlinked temporary file (gone when the process
// ends, however it ends) and read back one at a time when the record is printed.
import { nodeCrypto } from './crypto.js';
import { closeSync, constants, mkdirSync, openSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { TextSink } from '../record/spill-scope.js';
import { writeAllSync } from './atomic-write.js';
import { readBytesSync } from './read-exact.js';

/**
 * Unicode noncharacters (never interchanged, so no log holds them by design) around a random nonce:
 * a log cannot forge a token it cannot predict, so a restored text is always one this process stored.
 */
const open = '\ufdd0';
const close = '\ufdd1';

export class TextSpill implements TextSink {
  private readonly nonce = nodeCrypto().randomBytes(6).toString('hex');
  private readonly token = new RegExp(`${open}${this.nonce}:(\\d+)${close}`, 'g');
  private readonly offsets: number[] = [];
  private readonly lengths: number[] = [];
  private end = 0;

  private constructor(private fd: number | null) {}

  /** Opens the store in `dir` (created if missing); the file is unlinked at once and lives only in the open descriptor. */
  static open(dir: string): TextSpill {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const path = join(dir, `spill-${process.pid}-${nodeCrypto().randomBytes(6).toString('hex')}`);
    const fd = openSync(path, constants.O_RDWR | constants.O_CREAT | constants.O_EXCL, 0o600);
    unlinkSync(path);
    return new TextSpill(fd);
  }

  put(text: string): string {
    const bytes = Buffer.from(text, 'utf8');
    // Appends at the descriptor's position; reads are positional and never move it.
    writeAllSync(this.live(), bytes);
    this.offsets.push(this.end);
    this.lengths.push(bytes.length);
    this.end += bytes.length;
    return `${open}${this.nonce}:${this.offsets.length - 1}${close}`;
  }

  /** `text` with every token of this store replaced by its stored text passed through `each`. */
  expand(text: string, each: (stored: string) => string = (s) => s): string {
    if (!text.includes(open)) return text;
    return text.replace(this.token, (whole, index: string) => {
      const i = Number(index);
      const offset = this.offsets[i];
      const length = this.lengths[i];
      if (offset === undefined || length === undefined) return whole;
      return each(this.read(offset, length));
    });
  }

  close(): void {
    if (this.fd === null) return;
    closeSync(this.fd);
    this.fd = null;
  }

  private read(offset: number, length: number): string {
    const buf = readBytesSync(this.live(), offset, length);
    if (buf.length !== length) throw new Error(`the spill file ended at ${offset + buf.length} of ${offset + length}`);
    return buf.toString('utf8');
  }

  private live(): number {
    if (this.fd === null) throw new Error('the spill store is closed');
    return this.fd;
  }
}
