// A least-recently-used map bounded by a byte cost rather than an entry count.

export class ByteLru<V> {
  private readonly map = new Map<string, { value: V; cost: number }>();
  private total = 0;

  constructor(readonly capacity: number) {}

  get size(): number {
    return this.map.size;
  }

  get bytes(): number {
    return this.total;
  }

  get(key: string): V | undefined {
    const hit = this.map.get(key);
    if (hit === undefined) return undefined;
    this.map.delete(key);
    this.map.set(key, hit);
    return hit.value;
  }

  has(key: string): boolean {
    return this.map.has(key);
  }

  /** Inserts and evicts the least recently used entries while over capacity (the newest always stays). */
  set(key: string, value: V, cost: number): void {
    const old = this.map.get(key);
    if (old !== undefined) {
      this.total -= old.cost;
      this.map.delete(key);
    }
    this.map.set(key, { value, cost });
    this.total += cost;
    for (const [k, v] of this.map) {
      if (this.total <= this.capacity || this.map.size <= 1) break;
      this.map.delete(k);
      this.total -= v.cost;
    }
  }

  delete(key: string): void {
    const old = this.map.get(key);
    if (old === undefined) return;
    this.total -= old.cost;
    this.map.delete(key);
  }

  clear(): void {
    this.map.clear();
    this.total = 0;
  }
}
