/**
 * A graceful stop. From the moment the process is asked to stop, the health route answers 503 (load
 * balancers take the instance out), every answer carries `Connection: close` (a kept-alive client
 * opens its next request elsewhere instead of meeting a closed socket), live streams end with a
 * hint to reconnect at once, and requests in flight finish.
 */
export class Drain {
  private started = false;
  private readonly listeners = new Set<() => void>();

  get draining(): boolean {
    return this.started;
  }

  begin(): void {
    if (this.started) return;
    this.started = true;
    for (const listener of this.listeners) listener();
  }

  onBegin(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
