// Which sessions of one store are roots (listed) and which are children (nested in a parent the
// same store holds). A parent chain that loops makes its members roots rather than vanish.
import type { OcSession } from './model.js';

export interface Roots<T> {
  roots: T[];
  childrenOf: Map<string, T[]>;
}

export function splitRoots<T>(items: readonly T[], sessionOf: (item: T) => OcSession): Roots<T> {
  const byId = new Map(items.map((i) => [sessionOf(i).id, i]));
  const childrenOf = new Map<string, T[]>();
  const roots: T[] = [];
  for (const item of items) {
    const self = sessionOf(item);
    const seen = new Set([self.id]);
    let current = self;
    let cycles = false;
    while (current.parentId !== undefined && byId.has(current.parentId)) {
      if (seen.has(current.parentId)) {
        cycles = true;
        break;
      }
      seen.add(current.parentId);
      current = sessionOf(byId.get(current.parentId) as T);
    }
    if (cycles || current === self || self.parentId === undefined) {
      roots.push(item);
      continue;
    }
    childrenOf.set(self.parentId, [...(childrenOf.get(self.parentId) ?? []), item]);
  }
  return { roots, childrenOf };
}

/** An item followed by all its descendants, depth first, each once. */
export function withDescendants<T>(root: T, childrenOf: Map<string, T[]>, sessionOf: (item: T) => OcSession): T[] {
  const out: T[] = [];
  const seen = new Set<string>();
  const visit = (item: T): void => {
    const id = sessionOf(item).id;
    if (seen.has(id)) return;
    seen.add(id);
    out.push(item);
    for (const child of childrenOf.get(id) ?? []) visit(child);
  };
  visit(root);
  return out;
}
