// One Crush message's `parts` column: a JSON array of `{type, data}` (internal/message/message.go
// marshalParts), the types `text`, `reasoning`, `tool_call`, `tool_result`, `finish`,
// `image_url`, `binary` and `shell_command`.
import { asArray, asObject, str, type JsonObject } from '../../json/narrow.js';

export interface CrushPart {
  type: string;
  data: JsonObject;
}

/** The parts, or undefined when the column is not a JSON array (counted as a bad row). */
export function parseParts(column: unknown): CrushPart[] | undefined {
  let value: unknown = column;
  if (typeof column === 'string') {
    try {
      value = JSON.parse(column);
    } catch {
      return undefined;
    }
  }
  const list = asArray(value);
  if (list === undefined) return undefined;
  const out: CrushPart[] = [];
  for (const item of list) {
    const part = asObject(item);
    const data = asObject(part?.data);
    const type = str(part, 'type');
    if (type !== undefined && data !== undefined) out.push({ type, data });
  }
  return out;
}

/** Epoch seconds (what Crush writes, `strftime('%s', 'now')`) or milliseconds, as ISO-8601. */
export function isoOf(value: unknown): string | null {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) return null;
  const d = new Date(value < 1e11 ? value * 1000 : value);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

export function msOf(value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) return 0;
  return value < 1e11 ? value * 1000 : value;
}
