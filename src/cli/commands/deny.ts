// `agentlog deny [path]`: take a repository's opt-in back.
import type { CliContext } from '../context.js';
import { flag, UsageError, type ParsedArgs } from '../args.js';
import { writeAllowlist } from '../../sync/allow/allow-file.js';
import { isInside } from '../../sync/allow/opt-in.js';
import { allowedJson, loadAllow, rootOf } from './allow.js';

export async function run(args: ParsedArgs, ctx: CliContext): Promise<number> {
  if (args.positionals.length > 1) throw new UsageError('deny takes one path (default: the current folder)');
  const root = rootOf(args.positionals[0]);
  const { path, list } = await loadAllow(ctx);
  const changed = list.delete(root);
  writeAllowlist(path, list);
  const still = [...list.keys()].filter((r) => isInside(root, r)).sort((a, b) => b.length - a.length)[0];
  if (flag(args, 'json')) {
    ctx.stdout.write(`${JSON.stringify({ allowed: allowedJson(list), changed, config: path, still_allowed_by: still ?? null })}\n`);
    return 0;
  }
  ctx.stdout.write(`${changed ? `No longer allowed: ${root}` : `Was not opted in: ${root}`}\n`);
  if (still !== undefined) ctx.stderr.write(`note: ${root} is still allowed through ${still} (agentlog deny ${still} to stop that)\n`);
  ctx.stdout.write(`Opt-in file: ${path}\n`);
  return 0;
}
