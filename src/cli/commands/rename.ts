// `agentlog rename <session-id-or-prefix> <name>`: names a session. An Intendant-format session
// keeps the name in its own meta; any other agent's goes to the names overlay under the state
// root, never into the agent's files.
import { flag, flagValues, UsageError, type ParsedArgs } from '../args.js';
import { parseAgentList } from '../agent-flag.js';
import { agentSource, type CliContext } from '../context.js';
import { resolveTarget } from '../../scan/resolve.js';
import { renameSession } from '../../names/session-names.js';
import { stripControls } from '../../text/control-chars.js';

export async function run(args: ParsedArgs, ctx: CliContext): Promise<number> {
  const [target, ...words] = args.positionals;
  if (target === undefined || words.length === 0)
    throw new UsageError('rename takes a session (an id, a unique id prefix or a file) and the new name');
  const agents = agentSource(ctx, await parseAgentList(flagValues(args, 'agent')));
  const { reader, session } = await resolveTarget(target, agents, { stateRoot: ctx.stateRoot, readerVersion: ctx.version });
  // Names are stored without control characters: a name is for reading, never for driving a terminal.
  const { text: name, removed } = stripControls(words.join(' '));
  const renamed = await renameSession(ctx.stateRoot, reader.id, session.sessionId, session.path, name);
  if (removed > 0) ctx.stderr.write(`removed ${removed} control character${removed === 1 ? '' : 's'} from the name\n`);
  if (flag(args, 'json')) {
    ctx.stdout.write(
      `${JSON.stringify({ agent: reader.id, session_id: session.sessionId, name: renamed.name, stored_in: renamed.where, path: renamed.path })}\n`,
    );
  } else {
    ctx.stdout.write(
      `${reader.id} ${session.sessionId} is now “${renamed.name}” (${renamed.where === 'meta' ? "in the session's own meta" : 'in the names overlay'}: ${renamed.path})\n`,
    );
  }
  return 0;
}
