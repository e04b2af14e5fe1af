// Pairs runtime output with the commands that asked for it. Pairing is first-in, first-out on rows
// alone (so counts are the same at every detail level); protocol lines, when the output has them,
// then route each result to the command whose nonce it names.
import { clipOutput } from '../../record/clip.js';
import { toolStatuses, type ToolCall, type ToolStatus } from '../../record/types.js';
import type { DraftCall, RuntimeResult } from './tool-calls.js';

export interface Outcome {
  exit: number | undefined;
  /** A status the row states outright (`ok`, `error`, `interrupted`). */
  status: string | undefined;
  error: boolean;
}

function isToolStatus(value: string | undefined): value is ToolStatus {
  return value !== undefined && (toolStatuses as readonly string[]).includes(value);
}

/** Sets exit code and status: stated, else from the exit code, else from the error flag. */
export function settle(call: ToolCall, o: Outcome): void {
  if (o.exit !== undefined) call.exit_code = o.exit;
  if (isToolStatus(o.status)) call.status = o.status;
  else if (o.exit !== undefined) call.status = o.exit === 0 ? 'ok' : 'error';
  else call.status = o.error ? 'error' : 'ok';
}

export class RuntimeCalls {
  private pending: DraftCall[] = [];
  /** The latest batch, where protocol nonces are looked up. */
  private batch: DraftCall[] = [];

  queue(calls: DraftCall[]): void {
    this.pending.push(...calls);
    this.batch = calls;
  }

  /** The call the next output row answers, or undefined when no command is waiting. */
  next(): DraftCall | undefined {
    const target = this.pending.shift();
    if (target !== undefined) target.fed = true;
    return target;
  }

  /** Plain output: all of it belongs to the paired call. */
  give(target: DraftCall, text: string, o: Outcome): void {
    const call = target.call.output === undefined ? target.call : this.batch.find((c) => c.call.output === undefined)?.call;
    if (call === undefined) return;
    if (text !== '') call.output = text;
    settle(call, o);
  }

  /** Protocol output: each result to the command its nonce names, else to the paired call. */
  route(target: DraftCall, results: readonly RuntimeResult[], o: Outcome): void {
    for (const r of results) {
      const byNonce = r.nonce === undefined ? undefined : this.batch.find((c) => c.nonce === r.nonce && c.call.output === undefined);
      this.give(byNonce ?? target, clipOutput(r.text), { exit: r.exitCode ?? o.exit, status: o.status, error: r.error });
    }
  }

  /** Commands still waiting are interrupted (an interruption row, or a meta that says so). */
  interrupt(): void {
    for (const c of this.pending) if (c.call.status === undefined) c.call.status = 'interrupted';
    this.pending = [];
  }

  /** Forgets calls a rewind removed. */
  drop(gone: ReadonlySet<DraftCall>): void {
    this.pending = this.pending.filter((c) => !gone.has(c));
    this.batch = this.batch.filter((c) => !gone.has(c));
  }

  get waiting(): number {
    return this.pending.length;
  }
}
