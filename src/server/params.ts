// Every query parameter, path parameter and body the routes accept, as zod schemas; a request that
// does not fit is a 400 naming the parameter, before anything touches the filesystem.
import { z } from 'zod';
import { isSessionId } from '../custody/session-id.js';
import { agentIds, detailLevels, isAgentId, type AgentId } from '../record/types.js';
import { badRequest, HttpError } from './http-error.js';

const int = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d{1,9}$/, 'a whole number')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

const agentList = z
  .string()
  .max(200)
  .transform((v, ctx) => {
    const out: AgentId[] = [];
    for (const part of v.split(',').map((p) => p.trim().toLowerCase().replace(/-/g, '_'))) {
      if (part === '' || part === 'all') continue;
      if (!isAgentId(part)) {
        ctx.addIssue({ code: 'custom', message: `unknown agent ${part}; one of ${agentIds.join(', ')}` });
        return z.NEVER;
      }
      out.push(part);
    }
    return out;
  });

export const sessionsQuery = z.object({
  agent: agentList.optional(),
  repo: z.string().max(1024).optional(),
  q: z.string().max(256).optional(),
  limit: int(1, 500).default(50),
  cursor: z.string().max(1024).optional(),
});

export const detailQuery = z.object({
  limit: int(1, 1000).default(100),
  before: int(0, 1_000_000_000).optional(),
  thread: z.string().min(1).max(1024).optional(),
  locate: z
    .string()
    .max(16 * 1024)
    .optional(),
});

const hitTarget = z.object({ role: z.string().max(32), ts_ms: z.number().finite(), text: z.string().max(4096) }).strict();
/** A deep search hit's line: its transcript (relative to the agent home, as the hit names it) and byte offset. */
const fileLine = z.object({ file: z.string().min(1).max(1024), offset: z.number().int().min(0) }).strict();

/** A query parameter holding JSON that must fit `schema` (`shape` says what, in the 400). */
function jsonParam<T>(schema: z.ZodType<T>, shape: string) {
  return z
    .string()
    .max(8 * 1024)
    .transform((v, ctx): T => {
      let raw: unknown;
      try {
        raw = JSON.parse(v);
      } catch {
        ctx.addIssue({ code: 'custom', message: shape });
        return z.NEVER;
      }
      const parsed = schema.safeParse(raw);
      if (!parsed.success) {
        ctx.addIssue({ code: 'custom', message: shape });
        return z.NEVER;
      }
      return parsed.data;
    });
}

export const turnsQuery = z.object({
  limit: int(1, 5000).default(80),
  before: int(0, 1_000_000_000).optional(),
  from: int(0, 1_000_000_000).optional(),
  around: int(0, 1_000_000_000).optional(),
  before_end: int(0, 1_000_000_000).optional(),
  match: jsonParam(hitTarget, 'JSON {role, ts_ms, text}').optional(),
  line: jsonParam(fileLine, 'JSON {file, offset}').optional(),
});

export const recordQuery = z.object({ detail: z.enum(detailLevels).default('full') });

export const messageSearchQuery = z.object({
  q: z.string().max(4096).optional(),
  agent: agentList.optional(),
  cursor: z.string().max(4096).optional(),
  limit: int(1, 50).optional(),
  window_days: int(0, 36_500).optional(),
  include_superseded: bool.default(true),
  include_subagents: bool.default(true),
});

export const deepSearchQuery = z.object({
  q: z.string().min(1).max(256),
  agent: agentList.optional(),
  timeout_ms: int(100, 30_000).default(10_000),
  max_hits: int(1, 1000).default(200),
});

export const usageQuery = z.object({ days: int(1, 366).default(30), tz: z.string().min(1).max(64).optional() });

export const nameBody = z.object({ name: z.string().trim().min(1, 'a name').max(200) }).strict();

/** Validates `value` with `schema`; a 400 naming the first bad parameter otherwise. */
export function check<S extends z.ZodType>(schema: S, value: unknown, what = 'parameter'): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const name = issue?.path.join('.') ?? '';
  throw badRequest(`invalid_${what}`, `invalid ${what}${name === '' ? '' : ` ${name}`}: ${issue?.message ?? 'not accepted'}`);
}

/** The `{agent}/{id}` of a session route: the agent from the registry, the id by custody's rule. */
export function sessionParams(agent: string, id: string): { agent: AgentId; id: string } {
  if (!isAgentId(agent)) throw new HttpError(404, 'unknown_agent', `no agent called ${agent.slice(0, 40)}; one of ${agentIds.join(', ')}`);
  if (!isSessionId(id)) throw badRequest('invalid_session_id', 'a session id has letters, digits, ".", "_" and "-" only');
  return { agent, id };
}
