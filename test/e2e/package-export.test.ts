// The built package as another project imports it: `import('agentlog')` through package.json's
// "exports", from a project whose node_modules links to this checkout.
import { execFile } from 'node:child_process';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { agentIds } from '../../src/record/types.js';
import { repoRoot, tempDir } from '../support/temp.js';

const run = promisify(execFile);

describe('the package main export', () => {
  it('imports from an installed project and lists the readers and entry points', async () => {
    const project = await tempDir('agentlog-consumer-');
    await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    await mkdir(join(project, 'node_modules'));
    await symlink(repoRoot, join(project, 'node_modules', 'agentlog'), 'dir');
    const script = "import('agentlog').then((m) => console.log(JSON.stringify({ keys: Object.keys(m), ids: m.readers.map((r) => r.id) })))";
    const { stdout } = await run(process.execPath, ['-e', script], { cwd: project });
    const { keys, ids } = JSON.parse(stdout) as { keys: string[]; ids: string[] };
    for (const name of [
      'readers',
      'readerFor',
      'claudeCodeReader',
      'codexReader',
      'kimiReader',
      'piReader',
      'intendantReader',
      'geminiReader',
      'opencodeReader',
      'crushReader',
      'gooseReader',
      'cursorReader',
      'clineReader',
      'rooCodeReader',
      'qwenReader',
      'copilotReader',
      'droidReader',
      'aiderReader',
      'agentIds',
      'finaliseRecord',
      'serialiseRecord',
      'scan',
      'resolveTarget',
      'Catalog',
      'keepHome',
      'sweep',
      'search',
      'AgentlogError',
      'exitCodeOf',
    ])
      expect(keys, name).toContain(name);
    expect([...ids].sort()).toEqual([...agentIds].sort());
    // Every registered reader is also exported by its own name.
    // `loadReader` (one reader by id, loaded lazily) is a function, not a reader.
    const named = keys.filter((k) => /Reader$/.test(k) && k !== 'loadReader');
    expect(named).toHaveLength(ids.length);
  });

  it('ships dist/index.js in the packed tarball', async () => {
    const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: repoRoot });
    const [pack] = JSON.parse(stdout) as { files: { path: string }[] }[];
    const files = (pack?.files ?? []).map((f) => f.path);
    expect(files).toContain('dist/index.js');
    expect(files).toContain('dist/index.d.ts');
    expect(files).toContain('dist/cli/main.js');
  });
});
