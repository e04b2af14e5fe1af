// A progress line on a TTY's stderr (never on a pipe, never under --json's stdout).
import type { Output } from './context.js';

export interface Progress {
  update(done: number, total: number): void;
  done(): void;
}

const silent: Progress = { update: () => undefined, done: () => undefined };

export function progressBar(out: Output, label: string, enabled: boolean): Progress {
  if (!enabled || !out.isTTY) return silent;
  let last = 0;
  let shown = false;
  return {
    update(done, total) {
      const now = Date.now();
      if (done !== total && now - last < 80) return;
      last = now;
      shown = true;
      const width = 28;
      const filled = total === 0 ? width : Math.round((done / total) * width);
      out.control('\r');
      out.write(`${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}`);
    },
    done() {
      if (shown) out.control('\r\u001b[2K');
    },
  };
}
