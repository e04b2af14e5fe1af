import { describe, expect, it } from 'vitest';
import type { ToolCall } from '../../record/types.js';
import { joinArgv, shellInput } from './shell-command.js';
import { applyOutput, customToolCall, functionCall, patchPath, readOutput, toolName } from './tool-calls.js';

const patch = '*** Begin Patch\n*** Update File: src/a.rs\n@@\n-a\n+b\n*** Add File: src/b.rs\n+x\n*** End Patch';

describe('shell input', () => {
  it('takes the script out of a bash -lc wrapper and quotes other argv', () => {
    expect(joinArgv(['bash', '-lc', 'ls -la | head'])).toBe('ls -la | head');
    expect(joinArgv(['/bin/zsh', '-c', 'echo hi'])).toBe('echo hi');
    expect(joinArgv(['grep', '-n', 'two words', 'f.txt'])).toBe("grep -n 'two words' f.txt");
    expect(joinArgv(['echo', "it's"])).toBe(`echo 'it'\\''s'`);
  });

  it('reads exec_command cmd, shell_command strings and shell-invoked apply_patch', () => {
    expect(shellInput({ cmd: 'npm test', workdir: '/w' })).toEqual({ format: 'shell', input: 'npm test' });
    expect(shellInput({ command: 'git status' })).toEqual({ format: 'shell', input: 'git status' });
    expect(shellInput({ command: ['apply_patch', patch] })).toEqual({ format: 'diff', input: patch });
    expect(shellInput({ command: ['bash', '-lc', `apply_patch <<'EOF'\n${patch}\nEOF`] })).toEqual({ format: 'diff', input: patch });
    expect(shellInput({ other: 1 })).toBeUndefined();
  });
});

describe('calls', () => {
  it('formats shell calls as the command and others as compact JSON', () => {
    expect(functionCall({ name: 'shell', arguments: '{"command":["bash","-lc","ls"],"workdir":"/w"}', call_id: 'c' }, true).call).toEqual({
      name: 'shell',
      format: 'shell',
      input: 'ls',
    });
    expect(functionCall({ name: 'exec_command', arguments: '{"cmd":"rg foo"}' }, true).call).toEqual({
      name: 'exec_command',
      format: 'shell',
      input: 'rg foo',
    });
    expect(functionCall({ name: 'update_plan', arguments: '{ "plan": [ 1, 2 ] }' }, true).call).toEqual({
      name: 'update_plan',
      format: 'json',
      input: '{"plan":[1,2]}',
    });
    expect(functionCall({ name: 'update_plan', arguments: '{ "plan": [ 1, 2 ] }' }, false).call).toEqual({ name: 'update_plan' });
  });

  it('reads apply_patch as a diff under the first file it names', () => {
    expect(customToolCall({ name: 'apply_patch', input: patch }, true).call).toEqual({
      name: 'apply_patch',
      format: 'diff',
      path: 'src/a.rs',
      input: patch,
    });
    expect(patchPath('no patch here')).toBeUndefined();
  });

  it('names namespaced tools the way older builds did and spots spawn launches', () => {
    expect(toolName({ name: 'execute', namespace: 'mcp__cloud__' })).toBe('mcp__cloud__execute');
    expect(toolName({ name: 'spawn_agent', namespace: 'collaboration' })).toBe('spawn_agent');
    expect(functionCall({ name: 'spawn_agent', namespace: 'collaboration', arguments: '{"message":"Inspect"}' }, true)).toEqual({
      call: { name: 'spawn_agent', format: 'text', input: 'Inspect' },
      spawn: 'direct',
    });
    expect(customToolCall({ name: 'exec', input: 'await tools.spawn_agent({message:"x"})' }, false).spawn).toBe('exec');
  });
});

describe('outputs', () => {
  const out = (output: unknown): ToolCall => {
    const call: ToolCall = { name: 't' };
    applyOutput(call, output);
    return call;
  };

  it('unwraps the older shell JSON with its exit code', () => {
    expect(out('{"output":"README.md\\n","metadata":{"exit_code":0,"duration_seconds":0.4}}')).toEqual({
      name: 't',
      output: 'README.md\n',
      exit_code: 0,
      status: 'ok',
    });
    expect(out('{"output":"boom","metadata":{"exit_code":2}}')).toMatchObject({ exit_code: 2, status: 'error' });
  });

  it('reads exec headers, arrays of text parts and stated failures', () => {
    expect(out('Chunk ID: 1\nWall time: 0.1 seconds\nProcess exited with code 1\nOriginal token count: 3\nOutput:\nnope\n')).toEqual({
      name: 't',
      output: 'nope\n',
      exit_code: 1,
      status: 'error',
    });
    expect(out('Exit code: 0\nWall time: 1 seconds\nOutput:\nok')).toMatchObject({ output: 'ok', exit_code: 0, status: 'ok' });
    expect(
      out([
        { type: 'input_text', text: 'a' },
        { type: 'input_image', image_url: 'x' },
        { type: 'input_text', text: 'b' },
      ]),
    ).toMatchObject({ output: 'a\nb', status: 'ok' });
    expect(out('apply_patch verification failed: no such file')).toMatchObject({ status: 'error' });
    expect(out({ content: 'denied', success: false })).toMatchObject({ output: 'denied', status: 'error' });
    expect(out('aborted')).toMatchObject({ status: 'interrupted' });
    expect(out('{"content":[{"type":"text","text":"mcp says"}],"isError":true}')).toMatchObject({ output: 'mcp says', status: 'error' });
  });

  it('clips a large output to its head and tail', () => {
    const call = out('x'.repeat(100_000));
    expect(Buffer.byteLength(call.output ?? '')).toBeLessThan(4200);
    expect(call.output).toContain('bytes omitted');
  });

  it('keeps a JSON-looking output that is not a wrapper as it is', () => {
    expect(readOutput('{"agent_id":"x"}').text).toBe('{"agent_id":"x"}');
  });
});
