// Narrowing helpers for JSON read from agents' files: every field is optional and may drift, so
// readers ask for what they need and get undefined for anything of the wrong shape.

export type JsonObject = { readonly [key: string]: unknown };

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function asObject(value: unknown): JsonObject | undefined {
  return isObject(value) ? value : undefined;
}

export function asArray(value: unknown): readonly unknown[] | undefined {
  return Array.isArray(value) ? value : undefined;
}

export function str(obj: JsonObject | undefined, key: string): string | undefined {
  const v = obj?.[key];
  return typeof v === 'string' ? v : undefined;
}

/** A non-empty string field, or undefined. */
export function text(obj: JsonObject | undefined, key: string): string | undefined {
  const v = obj?.[key];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

export function num(obj: JsonObject | undefined, key: string): number | undefined {
  const v = obj?.[key];
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

export function bool(obj: JsonObject | undefined, key: string): boolean | undefined {
  const v = obj?.[key];
  return typeof v === 'boolean' ? v : undefined;
}

export function obj(o: JsonObject | undefined, key: string): JsonObject | undefined {
  return asObject(o?.[key]);
}

export function arr(o: JsonObject | undefined, key: string): readonly unknown[] | undefined {
  return asArray(o?.[key]);
}

/** Parses one line of JSON; undefined (never a throw) for anything that is not a JSON object. */
export function parseObjectLine(line: string): JsonObject | undefined {
  if (line.length === 0 || line.charCodeAt(0) !== 123 /* { */) {
    const trimmed = line.trim();
    if (!trimmed.startsWith('{')) return undefined;
    line = trimmed;
  }
  try {
    return asObject(JSON.parse(line));
  } catch {
    return undefined;
  }
}
