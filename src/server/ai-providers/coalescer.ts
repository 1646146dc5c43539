/**
 * At most one computation per key at a time, and at most one waiting behind it: a request that
 * arrives while one runs shares the follow-up, which starts when the running one ends, so it sees
 * every write that came before the request, however many requests piled up meanwhile.
 */
export class Coalescer<T> {
  private readonly slots = new Map<string, { running: Promise<T>; next: Promise<T> | undefined }>();

  run(key: string, compute: () => Promise<T>): Promise<T> {
    const slot = this.slots.get(key);
    if (slot === undefined) return this.start(key, compute);
    // The follow-up becomes the key's running computation when the current one ends.
    slot.next ??= slot.running.then(
      () => this.start(key, compute),
      () => this.start(key, compute),
    );
    return slot.next;
  }

  /** Keys with a computation running. */
  get size(): number {
    return this.slots.size;
  }

  private start(key: string, compute: () => Promise<T>): Promise<T> {
    const running = compute();
    this.slots.set(key, { running, next: undefined });
    const release = () => {
      this.release(key, running);
    };
    void running.then(release, release);
    return running;
  }

  private release(key: string, finished: Promise<T>): void {
    const slot = this.slots.get(key);
    if (slot?.running === finished && slot.next === undefined) this.slots.delete(key);
  }
}
