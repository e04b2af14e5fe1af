// V8's code cache for the CLI's own bundle. Every command compiles the bundle's CommonJS chunks
// anew (a `tail` loads ~48 of them, ~780 KB); V8 can instead take the bytecode a previous run made
// of the same file. Node 20 has no switch for this (module.enableCompileCache came in Node 22), so
// the bin compiles its chunks itself: the code a chunk compiled to, once the command has run (so
// the functions it called are in it), is kept under the state root, one file per chunk, and given
// back to V8 the next time. Only files beside the bin (its chunks) are compiled here; packages in
// node_modules load as Node loads them.
//
// A cached file is named for the chunk's name, size and modification time, and for the Node
// version, architecture and V8 flags it was made under, so a rebuilt or upgraded bundle never
// meets code made from another text, and runs with other flags (the bin's shebang, a test's plain
// `node`) keep their own. V8 checks its own version, flags and the source's length again and
// rejects a mismatch (the chunk is then compiled from source and its cache written afresh).
//
// The cache only saves time: a cache that cannot be read or written (a read-only state root, a full
// disk) is passed over in silence, and the command runs as it would without it.
import { mkdirSync, readdirSync, readFileSync, statSync, unlinkSync } from 'node:fs';
import Module from 'node:module';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { writeFileAtomicSync } from '../fs/atomic-write.js';

/** The parts of Node's CommonJS loader this hook uses; none of them is in @types/node. */
interface LoadedModule {
  exports: unknown;
  require(id: string): unknown;
  _compile(content: string, filename: string): unknown;
}
interface ModuleStatics {
  wrap(script: string): string;
  _resolveFilename(request: string, parent: LoadedModule, isMain: boolean, options?: unknown): string;
  _cache: unknown;
  _extensions: unknown;
}
type CompiledWrapper = (
  this: unknown,
  exports: unknown,
  require: unknown,
  module: LoadedModule,
  filename: string,
  dirname: string,
) => unknown;

/** FNV-1a of a short text, as 8 hex digits: tells the cache files of two runtimes apart. */
function shortHash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0');
}

/** Which build of a chunk a cache file was made from: its size and mtime. */
const versionOf = (st: { size: number; mtimeMs: number }): string => `${st.size}-${Math.trunc(st.mtimeMs)}`;

/** The cache file's name for this build of a chunk, under this runtime. */
function entryName(chunk: string, version: string, runtime: string): string {
  return `${chunk}.${version}.${runtime}.v8`;
}

/** The chunk and the version of it (size, mtime) a cache file was made from; undefined for a name not ours. */
function parseEntryName(name: string): { chunk: string; version: string } | undefined {
  const m = /^(.+\.js)\.(\d+-\d+)\.[0-9a-f]{8}\.v8$/.exec(name);
  return m?.[1] === undefined || m[2] === undefined ? undefined : { chunk: m[1], version: m[2] };
}

/**
 * Compiles the chunks in `bundleDir` with the code cached in `cacheDir` (and caches what had none)
 * from here on. Install it before the first chunk a command needs is loaded.
 */
export function cacheCompiledCode(bundleDir: string, cacheDir: string): void {
  const statics = Module as unknown as ModuleStatics;
  const proto = Module.prototype as unknown as LoadedModule;
  const runtime = shortHash([process.version, process.arch, ...process.execArgv].join('\0'));
  const toWrite: { path: string; script: Script }[] = [];
  const original = proto._compile;
  proto._compile = function compileWithCache(this: LoadedModule, content: string, filename: string): unknown {
    if (dirname(filename) !== bundleDir) return original.call(this, content, filename);
    let path: string | undefined;
    let cachedData: Buffer | undefined;
    try {
      path = join(cacheDir, entryName(basename(filename), versionOf(statSync(filename)), runtime));
      cachedData = readFileSync(path);
    } catch {
      // No cache yet (or none readable): compiled from source, and cached at exit.
    }
    // Node strips the bin's shebang itself; a script must not start with one inside the wrapper.
    const source = content.startsWith('#!') ? `//${content.slice(2)}` : content;
    const script = new Script(statics.wrap(source), { filename, ...(cachedData === undefined ? {} : { cachedData }) });
    if (path !== undefined && (cachedData === undefined || script.cachedDataRejected === true)) toWrite.push({ path, script });
    const wrapper = script.runInThisContext({ displayErrors: true }) as CompiledWrapper;
    // The `require` Node gives a module: the chunks call it (and nothing else of it) to load one another.
    const require = Object.assign((id: string) => this.require(id), {
      resolve: (request: string, options?: unknown) => statics._resolveFilename(request, this, false, options),
      main: process.mainModule,
      cache: statics._cache,
      extensions: statics._extensions,
    });
    return wrapper.call(this.exports, this.exports, require, this, filename, dirname(filename));
  };
  process.once('exit', () => {
    if (toWrite.length === 0) return;
    try {
      mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
      // Made after the command ran, the cache holds the functions it compiled on the way, not only the top level.
      for (const { path, script } of toWrite) writeFileAtomicSync(path, script.createCachedData(), { durable: false });
      prune(bundleDir, cacheDir);
    } catch {
      // Not written: the next run compiles from source again.
    }
  });
}

/** Removes the cache of chunks no longer in the bundle, or of an older build of one (another size or mtime). */
function prune(bundleDir: string, cacheDir: string): void {
  const current = new Map<string, string>();
  for (const name of readdirSync(bundleDir)) {
    if (!name.endsWith('.js')) continue;
    current.set(name, versionOf(statSync(join(bundleDir, name))));
  }
  for (const name of readdirSync(cacheDir)) {
    const entry = parseEntryName(name);
    if (entry !== undefined && current.get(entry.chunk) === entry.version) continue;
    // A temp file of a write in progress in another process is left to it.
    if (entry === undefined && name.startsWith('.')) continue;
    unlinkSync(join(cacheDir, name));
  }
}
