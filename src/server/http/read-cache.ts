import type { EventBus } from '../event-bus/event-bus.js';

interface Entry<T> {
  value: T;
  storedAt: number;
}

interface Load<T> {
  generation: number;
  epoch: number;
  answer: Promise<T>;
}

export interface ReadCacheOptions {
  /** Upper bound on staleness should an event never arrive (an instance that died between its commit and its NOTIFY). */
  maxAgeMs: number;
  now?: () => number;
}

/**
 * Answers kept per key (a component id, say) until the key is invalidated; `cachedJson` drives it
 * from live events for each cached route. Three rules keep it from serving stale data:
 * - a load started before an invalidation of its key (per-key generation) or of everything
 *   (global epoch) is never stored, and no request that came after that invalidation joins it;
 * - while the bus may be missing events (its LISTEN connection is down) nothing is kept;
 * - an entry older than `maxAgeMs` is loaded again, should an event never arrive.
 * Concurrent misses of one key share one load, so an invalidation under load costs one query, not
 * one per waiting request.
 */
export class ReadCache<T = Buffer> {
  private readonly entries = new Map<string, Entry<T>>();
  private readonly generations = new Map<string, number>();
  private readonly loads = new Map<string, Load<T>>();
  private epoch = 0;
  private readonly now: () => number;

  constructor(
    private readonly bus: Pick<EventBus, 'reliable'>,
    private readonly options: ReadCacheOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  async get(key: string, load: () => Promise<T>): Promise<T> {
    if (!this.busIsReliable()) return load();
    const entry = this.entries.get(key);
    if (entry !== undefined && this.now() - entry.storedAt < this.options.maxAgeMs) return entry.value;

    const generation = this.generations.get(key) ?? 0;
    const running = this.loads.get(key);
    if (running !== undefined && running.generation === generation && running.epoch === this.epoch) return running.answer;

    const epoch = this.epoch;
    const answer = load();
    this.loads.set(key, { generation, epoch, answer });
    try {
      const value = await answer;
      if (this.busIsReliable() && epoch === this.epoch && generation === (this.generations.get(key) ?? 0)) {
        this.entries.set(key, { value, storedAt: this.now() });
      }
      return value;
    } finally {
      if (this.loads.get(key)?.answer === answer) this.loads.delete(key);
    }
  }

  /** Whether `get` would answer from memory now, without loading. */
  has(key: string): boolean {
    const entry = this.entries.get(key);
    return this.busIsReliable() && entry !== undefined && this.now() - entry.storedAt < this.options.maxAgeMs;
  }

  /** A call, not a property read: the answer may change while a load is awaited. */
  private busIsReliable(): boolean {
    return this.bus.reliable;
  }

  invalidate(key: string): void {
    this.entries.delete(key);
    this.generations.set(key, (this.generations.get(key) ?? 0) + 1);
  }

  invalidateAll(): void {
    this.entries.clear();
    this.epoch += 1;
  }

  get size(): number {
    return this.entries.size;
  }
}
