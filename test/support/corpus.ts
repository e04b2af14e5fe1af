// Where the real-log corpus lives and whether this checkout has it: corpus tests skip without it.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { repoRoot } from './repo-root.js';

const fromEnv = process.env.AGENTLOG_CORPUS;

/** `AGENTLOG_CORPUS`, else `../shared/corpus` beside the checkout (CI lays a copy of shared/ there). */
export const corpusRoot = fromEnv !== undefined && fromEnv !== '' ? resolve(fromEnv) : resolve(repoRoot, '..', 'shared', 'corpus');

/** True when the corpus is there: `describe.skipIf(!hasCorpus)` for every test that reads it. */
export const hasCorpus = existsSync(corpusRoot);

/** The one line printed when the corpus tests are skipped. */
export const corpusHint = `real-log corpus tests skipped: no corpus at ${corpusRoot} (lay shared/corpus beside the checkout or set AGENTLOG_CORPUS)`;

/** Set by `.ci/run`: a missing corpus fails the run instead of skipping its tests. */
export const corpusRequired = process.env.AGENTLOG_REQUIRE_CORPUS === '1';

export function corpusPath(rel: string): string {
  return join(corpusRoot, rel);
}
