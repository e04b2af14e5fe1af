// `agentlog allow [path] [--detail full|messages|summary]`: opt a repository in to sync (seed 003).
import { resolve } from 'node:path';
import { flag, flagValue, UsageError, type ParsedArgs } from '../args.js';
import type { CliContext } from '../context.js';
import { readAllowlist, writeAllowlist, type Allowlist } from '../../sync/allow/allow-file.js';
import { normalisePath } from '../../sync/allow/opt-in.js';
import { cachedRealPath, syncPaths } from '../../sync/settings.js';
import { detailLevels, isDetail, type Detail } from '../../record/types.js';

/** The path a person named, absolute and clean, through its symlinks when it exists here. */
export function rootOf(raw: string | undefined): string {
  const abs = normalisePath(resolve(process.cwd(), raw ?? '.'));
  if (abs === null) throw new UsageError(`not a path: ${raw}`);
  return cachedRealPath()(abs) ?? abs;
}

export function allowedJson(list: Allowlist): { path: string; detail: Detail }[] {
  return [...list.keys()].sort().map((path) => ({ path, detail: list.get(path)! }));
}

export async function loadAllow(ctx: CliContext): Promise<{ path: string; list: Map<string, Detail> }> {
  const path = syncPaths(ctx.lookup, ctx.stateRoot).allowFile;
  return { path, list: new Map(await readAllowlist(path)) };
}

export async function run(args: ParsedArgs, ctx: CliContext): Promise<number> {
  if (args.positionals.length > 1) throw new UsageError('allow takes one path (default: the current folder)');
  const detail = flagValue(args, 'detail') ?? 'full';
  if (!isDetail(detail)) throw new UsageError(`--detail must be one of ${detailLevels.join(', ')}`);
  const root = rootOf(args.positionals[0]);
  const { path, list } = await loadAllow(ctx);
  const before = list.get(root);
  const changed = before !== detail;
  list.set(root, detail);
  writeAllowlist(path, list);
  if (flag(args, 'json')) {
    ctx.stdout.write(`${JSON.stringify({ allowed: allowedJson(list), changed, config: path })}\n`);
    return 0;
  }
  const line =
    before === undefined
      ? `Allowed ${root} (detail ${detail}).`
      : changed
        ? `Allowed ${root} at ${detail} (was ${before}).`
        : `Already allowed: ${root} (detail ${detail})`;
  ctx.stdout.write(`${line}\nOpt-in file: ${path}\n`);
  return 0;
}
