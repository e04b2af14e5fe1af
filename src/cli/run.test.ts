// The dispatcher: subcommands with their own flags, generated help, strict flags, --json from the
// parsed flags, and human output sanitised at this one edge.
import { describe, expect, it } from 'vitest';
import { flag, flagValue } from './args.js';
import type { Command } from './command.js';
import { run } from './run.js';
import { captureContext } from './test-support/capture.js';
import { tempDir } from '../../test/support/temp.js';

const calls: string[] = [];

const add: Command = {
  name: 'add',
  summary: 'add a user',
  usage: 'hub user add <name> [--admin]',
  flags: [{ name: 'admin', help: 'give the user every right' }],
  async run(args, ctx) {
    calls.push(`add ${args.positionals.join(' ')}${flag(args, 'admin') ? ' admin' : ''}`);
    ctx.stdout.write(flag(args, 'json') ? '{"ok":true}\n' : `added ${args.positionals[0]}\n`);
    return 0;
  },
};

const revoke: Command = {
  name: 'revoke',
  summary: 'revoke a token',
  usage: 'hub token revoke <name> [--reason R]',
  flags: [{ name: 'reason', value: 'R', help: 'why' }],
  async run(args) {
    calls.push(`revoke ${args.positionals.join(' ')} ${flagValue(args, 'reason') ?? ''}`);
    return 0;
  },
};

const hub: Command = {
  name: 'hub',
  summary: 'manage a hub',
  usage: 'hub <user|token> …',
  flags: [],
  subcommands: [
    { name: 'user', summary: 'users', usage: 'hub user <add> …', flags: [], subcommands: [add] },
    { name: 'token', summary: 'tokens', usage: 'hub token <revoke> …', flags: [], subcommands: [revoke] },
  ],
};

const echo: Command = {
  name: 'echo',
  summary: 'print its words',
  usage: 'echo <words>…',
  flags: [],
  async run(args, ctx) {
    ctx.stdout.write(`${args.positionals.join(' ')}\n`);
    ctx.stderr.write(`${args.positionals.join(' ')}\n`);
    return 0;
  },
};

const registry = [hub, echo];

describe('run', () => {
  it('dispatches subcommands, each parsing its own flags', async () => {
    const ctx = captureContext(await tempDir());
    calls.length = 0;
    expect(await run(['hub', 'user', 'add', 'ada', '--admin'], ctx, registry)).toBe(0);
    expect(await run(['hub', 'token', 'revoke', 'ci', '--reason', 'leaked'], ctx, registry)).toBe(0);
    expect(calls).toEqual(['add ada admin', 'revoke ci leaked']);
    expect(ctx.stdout.text()).toBe('added ada\n');
  });

  it('refuses a flag of another subcommand, an unknown subcommand and a missing one, with exit 2', async () => {
    const home = await tempDir();
    const cross = captureContext(home);
    expect(await run(['hub', 'user', 'add', 'ada', '--reason', 'x'], cross, registry)).toBe(2);
    expect(cross.stderr.text()).toMatch(/unknown flag --reason for `agentlog hub user add`/);
    const unknown = captureContext(home);
    expect(await run(['hub', 'group', 'add', '--json'], unknown, registry)).toBe(2);
    expect(JSON.parse(unknown.stdout.text())).toMatchObject({
      error: { code: 'Usage', message: expect.stringMatching(/unknown subcommand "group"/) },
    });
    const missing = captureContext(home);
    expect(await run(['hub', 'user'], missing, registry)).toBe(2);
    expect(missing.stderr.text()).toMatch(/`agentlog hub user` needs a subcommand: add/);
  });

  it('generates help for a command, its subcommands and their flags', async () => {
    const ctx = captureContext(await tempDir());
    expect(await run(['hub', '--help'], ctx, registry)).toBe(0);
    expect(ctx.stdout.text()).toMatch(/Subcommands:\n {2}user {3}users\n {2}token {2}tokens/);
    const sub = captureContext(await tempDir());
    expect(await run(['help', 'hub', 'user', 'add'], sub, registry)).toBe(0);
    expect(sub.stdout.text()).toMatch(/^Usage: agentlog hub user add <name> \[--admin\]/);
    expect(sub.stdout.text()).toMatch(/--admin +give the user every right\n.*--json.*\n.*--help/);
  });

  it('reads --json from the parsed flags: a word after -- is a positional', async () => {
    const ctx = captureContext(await tempDir());
    expect(await run(['hub', 'user', 'add', '--', '--json'], ctx, registry)).toBe(0);
    expect(ctx.stdout.text()).toBe('added --json\n');
  });

  it('sanitises human stdout and stderr, and turns style marks into colour only on a colour terminal', async () => {
    const home = await tempDir();
    const plain = captureContext(home);
    expect(await run(['echo', 'a\u001b]0;x\u0007b\u202e'], plain, registry)).toBe(0);
    expect(plain.stdout.text()).toBe('a\\x1b]0;x\\x07b\\u202e\n');
    expect(plain.stderr.text()).toBe('a\\x1b]0;x\\x07b\\u202e\n');
    const colour = captureContext(home, true);
    expect(await run(['echo', '\ufdd0bold\ufdd2'], colour, registry)).toBe(0);
    expect(colour.stdout.text()).toBe('\u001b[1mbold\u001b[22m\n');
    expect(colour.stderr.text()).toBe('\\ufdd0bold\\ufdd2\n');
  });
});
