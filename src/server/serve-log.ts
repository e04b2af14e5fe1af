// The serve process's own log, <AGENTLOG_HOME>/logs/serve.log: one timestamped line per event
// (start, sweeps with counts and durations, errors), never a query or message text. Rotated by
// size: serve.log → serve.log.1 → … → serve.log.3.
import { appendFileSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

export const serveLogName = 'serve.log';

export interface ServeLog {
  write(line: string): void;
  /** The log's lines stamped within [fromMs, toMs], oldest first (for report.zip). */
  span(fromMs: number, toMs: number): Promise<string[]>;
}

export interface LogOptions {
  dir: string;
  now: () => number;
  maxBytes?: number;
  keep?: number;
}

export function logDir(stateRoot: string): string {
  return join(stateRoot, 'logs');
}

/** A log that writes synchronously (a line must survive the process being stopped right after). */
export function openServeLog(opts: LogOptions): ServeLog {
  const path = join(opts.dir, serveLogName);
  const maxBytes = opts.maxBytes ?? 1024 * 1024;
  const keep = opts.keep ?? 3;
  mkdirSync(opts.dir, { recursive: true, mode: 0o700 });
  const rotate = (): void => {
    for (let i = keep - 1; i >= 1; i--) {
      try {
        renameSync(`${path}.${i}`, `${path}.${i + 1}`);
      } catch {
        // that generation does not exist yet
      }
    }
    renameSync(path, `${path}.1`);
  };
  return {
    write(line) {
      const text = `${new Date(opts.now()).toISOString()} ${line.replace(/[\r\n]+/g, ' ')}\n`;
      try {
        if ((statSync(path, { throwIfNoEntry: false })?.size ?? 0) + text.length > maxBytes) rotate();
        appendFileSync(path, text, { mode: 0o600 });
      } catch {
        // A log that cannot be written must not stop the server.
      }
    },
    async span(fromMs, toMs) {
      const out: string[] = [];
      for (let i = keep; i >= 0; i--) {
        const text = await readFile(i === 0 ? path : `${path}.${i}`, 'utf8').catch(() => '');
        for (const line of text.split('\n')) {
          const at = Date.parse(line.slice(0, 24));
          if (!Number.isNaN(at) && at >= fromMs && at <= toMs) out.push(line);
        }
      }
      return out;
    },
  };
}
