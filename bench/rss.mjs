// `node bench/rss.mjs`: peak RSS of every command on a home holding one ~300 MB Claude Code session
// (generated once under bench/.cache/ from the bench generators), and how long SIGINT and SIGTERM take
// to stop `keep --all` and `index` mid-run: `keep` is signalled once a third of the big file is copied
// (its temp file seen that large), `index` `RSS_SIGNAL_AFTER_MS` after its writer lock appears (inside
// the big session's extraction). `RSS_MB=300`, `RSS_SIGNAL_AFTER_MS=1500` tune it;
// `RSS_ONLY=show,tail` measures only the commands whose first word is listed (`signal` for the stop times).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateHome, generatorVersion } from './generate-home.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const cli = join(here, '..', 'dist', 'cli', 'main.js');
const mb = Number(process.env.RSS_MB ?? 300);
const signalAfterMs = Number(process.env.RSS_SIGNAL_AFTER_MS ?? 1500);
/** A command that outlives this after its signal is killed, and reported as not stopped. */
const signalBoundMs = 120_000;
const only = process.env.RSS_ONLY === undefined ? null : new Set(process.env.RSS_ONLY.split(','));
const wanted = (word) => only === null || only.has(word);

function ensureHome() {
  const home = join(here, '.cache', `rss-home-${mb}m`);
  const marker = join(home, 'generated.json');
  if (existsSync(marker)) {
    const m = JSON.parse(readFileSync(marker, 'utf8'));
    if (m.version === generatorVersion) return { home, file: m.file };
  }
  rmSync(home, { recursive: true, force: true });
  mkdirSync(home, { recursive: true });
  console.log(`generating one ${mb} MB Claude Code session in ${home} (once)…`);
  const bytes = mb * 1_000_000;
  // Every byte goes to the one big Claude Code file: no Codex, no other agent.
  const stats = generateHome(home, bytes, { bigFileBytes: bytes, codexShare: 0, shares: {} });
  writeFileSync(marker, JSON.stringify({ version: generatorVersion, file: stats.bigFile }));
  return { home, file: stats.bigFile };
}

function env(home, state) {
  return {
    PATH: process.env.PATH,
    HOME: home,
    AGENTLOG_HOME: state,
    CLAUDE_CONFIG_DIR: join(home, '.claude'),
    CODEX_HOME: join(home, '.codex'),
    KIMI_CODE_HOME: join(home, '.kimi-code'),
    PI_CODING_AGENT_DIR: join(home, '.pi', 'agent'),
    INTENDANT_HOME: join(home, '.intendant'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    TZ: 'UTC',
    NO_COLOR: '1',
  };
}

/** Runs `agentlog <args>` under `/usr/bin/time -v`: exit code, wall seconds, peak RSS in MiB. */
function measure(args, home, state) {
  const report = join(state, '..', `time-${process.pid}.txt`);
  const r = spawnSync('/usr/bin/time', ['-v', '-o', report, process.execPath, cli, ...args], {
    env: env(home, state),
    stdio: ['ignore', 'ignore', 'pipe'],
    maxBuffer: 1 << 26,
  });
  const text = readFileSync(report, 'utf8');
  const kb = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(text)?.[1] ?? Number.NaN);
  const wall = /Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (\S+)/.exec(text)?.[1] ?? '?';
  return { code: r.status, rssMiB: kb / 1024, wall, stderr: r.stderr.toString('utf8').trim().split('\n').at(-1) ?? '' };
}

/** Lock files (custody's `.lock`, the index's `writer.lock`) still under `state`. */
function locksLeft(state) {
  return readdirSync(state, { recursive: true }).filter((p) => /(^|\/)(\.lock|writer\.lock)$/.test(String(p)));
}

/** Files under `dir` with their sizes (what a run has written so far). */
function filesUnder(dir) {
  const out = [];
  let names = [];
  try {
    names = readdirSync(dir, { recursive: true });
  } catch {
    return out;
  }
  for (const path of names) {
    try {
      const st = statSync(join(dir, String(path)));
      if (st.isFile()) out.push({ path: String(path), size: st.size });
    } catch {
      // Renamed or removed since the listing.
    }
  }
  return out;
}

/**
 * Starts `agentlog <args>`, sends `signal` `afterMs` after `ready(files under state)` first holds (the
 * run is then known to be under way), and times the exit from the signal.
 */
function stopTime(args, home, state, signal, ready, afterMs) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, [cli, ...args], { env: env(home, state), stdio: ['ignore', 'ignore', 'pipe'] });
    let sentAt = null;
    let killed = false;
    let timer;
    let guard;
    const poll = setInterval(() => {
      if (!ready(filesUnder(state))) return;
      clearInterval(poll);
      timer = setTimeout(() => {
        sentAt = performance.now();
        child.kill(signal);
        guard = setTimeout(() => {
          killed = true;
          child.kill('SIGKILL');
        }, signalBoundMs);
      }, afterMs);
    }, 5);
    child.on('exit', (code, sig) => {
      clearInterval(poll);
      clearTimeout(timer);
      clearTimeout(guard);
      const now = performance.now();
      resolve({
        finishedFirst: sentAt === null,
        ms: sentAt === null ? now - started : now - sentAt,
        code,
        sig,
        killed,
        lock: locksLeft(state),
      });
    });
  });
}

const { home, file } = ensureHome();
const id = basename(file, '.jsonl');
const work = mkdtempSync(join(tmpdir(), 'agentlog-rss-'));
const fresh = (name) => {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  return dir;
};

try {
  console.log(`home: ${home} (one Claude Code session ${id}, ${mb} MB)`);
  console.log('\n| command | exit | wall | peak RSS (MiB) | ≤ 300 MiB |');
  console.log('|---|---|---|---|---|');
  const state = fresh('state');
  const commands = [
    ['scan'],
    ['show', id],
    ['show', id, '--json'],
    ['show', id, '--markdown'],
    ['tail', id],
    ['keep', '--all'],
    ['index'],
    ['search', 'zanzibar7', '--window-days', '0'],
  ];
  for (const args of commands.filter((a) => wanted(a[0]))) {
    const m = measure(args, home, state);
    const note = m.code === 0 ? '' : ` (${m.stderr})`;
    console.log(
      `| agentlog ${args.join(' ')} | ${m.code}${note} | ${m.wall} | ${m.rssMiB.toFixed(0)} | ${m.rssMiB <= 300 ? 'yes' : 'NO'} |`,
    );
  }

  const bigBytes = statSync(file).size;
  const triggers = [
    [
      ['keep', '--all'],
      'a third of the file copied',
      (files) => files.some((f) => f.path.endsWith('.keep-tmp') && f.size >= bigBytes / 3),
      0,
    ],
    [['index'], `${signalAfterMs} ms after its writer lock`, (files) => files.some((f) => f.path.endsWith('writer.lock')), signalAfterMs],
  ];
  if (wanted('signal')) console.log('\n| command | signal | sent when | signal → exit | exit | lock left |');
  if (wanted('signal')) console.log('|---|---|---|---|---|---|');
  for (const [args, when, ready, afterMs] of wanted('signal') ? triggers : []) {
    for (const signal of ['SIGINT', 'SIGTERM']) {
      const s = await stopTime(args, home, fresh(`sig-${args[0]}-${signal}`), signal, ready, afterMs);
      const exit = s.killed ? `still running ${signalBoundMs / 1000} s after: killed` : `${s.code ?? s.sig}`;
      const took = s.finishedFirst ? `finished before the signal (${(s.ms / 1000).toFixed(2)} s)` : `${(s.ms / 1000).toFixed(2)} s`;
      console.log(
        `| agentlog ${args.join(' ')} | ${signal} | ${when} | ${took} | ${exit} | ${s.lock.length > 0 ? s.lock.join(', ') : 'no'} |`,
      );
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
