// `agentlog show <file-or-session-id>`: one session, readable, as JSON, or as Markdown.
import { flag, flagValue, flagValues, type ParsedArgs, UsageError } from '../args.js';
import { parseAgentList } from '../agent-flag.js';
import { agentSource } from '../context.js';
import type { CliContext } from '../context.js';
import type { AgentReader, DiscoveredSession } from '../../agents/types.js';
import { resolveTarget } from '../../scan/resolve.js';
import { reason } from '../../errors.js';
import { ScanError } from '../../scan/errors.js';
import { finaliseRecord } from '../../record/finalise.js';
import { makeHomeElider } from '../../record/home-elide.js';
import { writeRecord } from '../../record/serialise.js';
import { type Detail, detailLevels, isDetail } from '../../record/types.js';
import { writeRecordText } from '../render/record-text.js';
import { ansiStyle, plainStyle } from '../render/format.js';
import { withTextSink } from '../../record/spill-scope.js';
import { TextSpill } from '../../fs/text-spill.js';
import { join } from 'node:path';
import { exportAssetsDir } from '../web-assets.js';

export async function run(args: ParsedArgs, ctx: CliContext): Promise<number> {
  const target = args.positionals[0];
  if (target === undefined || args.positionals.length > 1)
    throw new UsageError('show takes one session: a file, a folder, an id or a unique id prefix');
  const detail = flagValue(args, 'detail') ?? 'full';
  if (!isDetail(detail)) throw new UsageError(`--detail must be one of ${detailLevels.join(', ')}`);
  if ([flag(args, 'json'), flag(args, 'markdown'), flag(args, 'html')].filter(Boolean).length > 1)
    throw new UsageError('choose one of --json, --markdown and --html');
  const agents = agentSource(ctx, await parseAgentList(flagValues(args, 'agent')));
  const { reader, session } = await resolveTarget(target, agents, { stateRoot: ctx.stateRoot, readerVersion: ctx.version });
  const asSent = flag(args, 'as-sent');
  if (asSent && (flag(args, 'markdown') || flag(args, 'html')))
    throw new UsageError(
      '--as-sent prints the body sync would send (add --json for it alone); it cannot be combined with --markdown or --html',
    );
  // Tool output (most of a session's bytes) waits in an unlinked file until it is printed, so memory
  // stays bounded on any session (issue 10: ≤ 300 MiB); where no such file can be made, it stays in memory.
  // The HTML export and the as-sent body need the whole record, so they are built in memory.
  const spill = detail === 'full' && !flag(args, 'html') && !asSent ? openSpill(join(ctx.stateRoot, 'tmp')) : null;
  try {
    return await showParsed(spill, reader, session, detail, args, ctx);
  } finally {
    spill?.close();
  }
}

function openSpill(dir: string): TextSpill | null {
  try {
    return TextSpill.open(dir);
  } catch {
    return null;
  }
}

async function showParsed(
  spill: TextSpill | null,
  reader: AgentReader,
  session: DiscoveredSession,
  detail: Detail,
  args: ParsedArgs,
  ctx: CliContext,
): Promise<number> {
  const asSent = flag(args, 'as-sent');
  const parse = () => reader.parse(session, { detail: asSent ? 'full' : detail });
  // As sync reads it: the texts a clip cuts are redacted whole before the cut.
  const pre = asSent
    ? await (async () => {
        const { redactBeforeClip } = await import('../../sync/body/pre-clip.js');
        const { cachedRealPath, homeForms } = await import('../../sync/settings.js');
        return redactBeforeClip(homeForms(ctx.userHome, cachedRealPath()));
      })()
    : null;
  const parsed = await (pre !== null ? pre.run(parse) : spill === null ? parse() : withTextSink(spill, parse));
  const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;
  for (const b of parsed.badLines) {
    // A reader that tallies its lines tells JSON that is not a record from text that is not JSON.
    const t = parsed.lineTally?.find((x) => x.path === b.path);
    const what =
      t === undefined || t.notRecord === 0
        ? plural(b.count, 'unparseable line', 'unparseable lines')
        : [
            t.unparseable > 0 ? plural(t.unparseable, 'unparseable line', 'unparseable lines') : '',
            plural(t.notRecord, 'line that is JSON but not a record', 'lines that are JSON but not records'),
          ]
            .filter((x) => x !== '')
            .join(' and ');
    ctx.stderr.write(`warning: ${what} skipped in ${b.path}\n`);
  }
  for (const t of parsed.lineTally ?? [])
    if (t.unknown > 0)
      ctx.stderr.write(`note: ${plural(t.unknown, 'line', 'lines')} of an unknown type in ${t.path} (kept by custody, not read)\n`);
  for (const p of parsed.problems) ctx.stderr.write(`warning: ${p.kind}: ${p.path}: ${p.reason}\n`);
  // Found by id or by path, a file that holds no session is the same answer: the request names nothing to show.
  if (parsed.record === null) throw new ScanError('NotASession', `${session.path} holds no ${reader.displayName} session`);
  // The sync and HTML-export code load only for the outputs that need them.
  if (asSent)
    return (await import('./show-as-sent.js')).showAsSent(
      reader,
      session,
      { ...parsed, record: parsed.record },
      flagValue(args, 'detail') as Detail | undefined,
      flag(args, 'json'),
      ctx,
      pre?.redactions ?? 0,
    );
  const elide = makeHomeElider(ctx.userHome);
  const record = finaliseRecord(parsed.record, { detail, elide });
  // A restored output is elided as finalising would have elided it in place.
  const restore = spill === null ? undefined : (text: string): string => spill.expand(text, elide);
  const write = (text: string): void => ctx.stdout.write(text);
  if (flag(args, 'json')) {
    writeRecord(record, write, restore);
    write('\n');
    return 0;
  }
  // The names (the overlay's validation, every reader's spellings) load only for these outputs.
  const [{ readOverlay }, { sessionName }] = await Promise.all([import('../../names/overlay.js'), import('../../names/session-names.js')]);
  // `sessionName` reads an unreadable overlay as no name; say why the name is missing, as scan does.
  const overlayProblem = await readOverlay(ctx.stateRoot).then(
    () => null,
    (error: unknown) => reason(error),
  );
  if (overlayProblem !== null) ctx.stderr.write(`warning: ${overlayProblem}\n`);
  const name = await sessionName(ctx.stateRoot, reader.id, session.sessionId, session.path);
  if (flag(args, 'html')) {
    const { exportHtml, loadExportAssets } = await import('../../server/export-html.js');
    write(exportHtml(record, name, await loadExportAssets(exportAssetsDir())));
  } else if (flag(args, 'markdown')) (await import('../render/record-markdown.js')).writeRecordMarkdown(record, name, write, restore);
  else writeRecordText(record, ctx.color ? ansiStyle : plainStyle, { file: session.path, name }, write, restore);
  return 0;
}
