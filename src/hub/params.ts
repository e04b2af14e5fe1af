// Every body and query the hub's routes accept, as zod schemas (the rules seed 003 states: the
// project rule, the closed kinds, limits clamped, a slug's shape); a request outside them is a 400.
import { z } from 'zod';
import { scopeNames, sourceKinds } from './store.js';

/** ASCII letters, digits, `.`, `_`, `-`, starting with a letter or digit, at most 64 bytes (seed 003). */
export const projectRule = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
/** An agent id as sessions name it (`claude_code`, `codex`, `colonizer`…). */
export const agentRule = /^[a-z][a-z0-9_]{0,31}$/;
/** A note's slug (`agent-log-<agent>-<session-id>`): lowercase letters, digits and `-`, at most 128. */
export const slugRule = /^[a-z0-9][a-z0-9-]{0,127}$/;

const project = z.string().regex(projectRule, 'letters, digits, ".", "_" and "-", starting with a letter or digit, at most 64');

/** A whole number clamped into [min, max] (the listing's limit: 500 asks for 100, it is not refused). */
const clampedInt = (min: number, max: number, fallback: number) =>
  z
    .string()
    .regex(/^\d{1,9}$/, 'a whole number')
    .transform(Number)
    .pipe(z.number().int().min(min, `at least ${min}`))
    .transform((n) => Math.min(n, max))
    .optional()
    .transform((n) => n ?? fallback);

export const sourceBody = z
  .object({
    kind: z.literal('agent_log', { message: 'only agent_log sources are ingested here' }),
    body: z.string().min(2, 'the record JSON'),
    path: z.string().min(1).max(512).optional(),
    scope: z.enum(scopeNames).default('personal'),
    project: project.nullable().optional(),
  })
  .strict();

const agentName = z.string().regex(agentRule, 'lowercase letters, digits and _');

/** The part of a session record (schema 1 to 3) the hub reads; the rest is kept as sent. */
export const sessionRecord = z.looseObject({
  schema_version: z.union([z.literal(1), z.literal(2), z.literal(3)], { message: 'schema_version 1, 2 or 3' }),
  agent: agentName,
  session_id: z.string().min(1).max(256),
  started_at: z.string().max(64).nullable().optional(),
  turns: z.array(z.unknown()),
});

export const checkBody = z
  .object({
    hashes: z.array(z.string().regex(/^[0-9a-f]{64}$/, 'a hex SHA-256')).max(1000),
    scope: z.enum(scopeNames).default('personal'),
  })
  .strict();

export const sourcesQuery = z.object({
  kind: z.enum(sourceKinds).optional(),
  project: project.optional(),
  agent: agentName.optional(),
  limit: clampedInt(1, 100, 50),
  cursor: z.string().max(400).optional(),
});

export const projectsQuery = z.object({ kind: z.enum(sourceKinds).optional() });

export const noteBody = z
  .object({
    slug: z.string().regex(slugRule, 'lowercase letters, digits and "-", at most 128'),
    title: z.string().max(1000).default(''),
    body: z.string().min(1, 'a note needs a body'),
    project: project.nullable().optional(),
    scope: z.enum(scopeNames).default('personal'),
  })
  .strict();

export const notePatch = z
  .object({
    title: z.string().max(1000).optional(),
    body: z.string().min(1).optional(),
    project: project.nullable().optional(),
  })
  .strict()
  .refine((p) => p.title !== undefined || p.body !== undefined || p.project !== undefined, 'give a title, a body or a project');

export const searchQuery = z.object({
  q: z.string().min(1, 'words to find').max(1000),
  project: project.optional(),
  limit: clampedInt(1, 50, 20),
});

export const sessionBody = z.object({ token: z.string().min(1).max(200) }).strict();

/** The words of a search (letters and digits runs), at most 16; none is a 400 upstream. */
export function searchTerms(q: string): string[] {
  return (q.match(/[\p{L}\p{N}_]+/gu) ?? []).slice(0, 16);
}
