import type { RateLimitRepository, RateLimitWindow } from "../../rate-limit-repository.js";
import type { Snapshotting } from "./snapshotting.js";

export class InMemoryRateLimitRepository implements RateLimitRepository, Snapshotting {
  #windows = new Map<string, RateLimitWindow>();

  snapshot(): unknown {
    return structuredClone(this.#windows);
  }

  restore(snapshot: unknown): void {
    this.#windows = snapshot as Map<string, RateLimitWindow>;
  }

  async hit(key: string, nowMs: number, windowMs: number): Promise<RateLimitWindow> {
    const current = this.#windows.get(key);
    const window =
      current && current.resetAtMs > nowMs
        ? { hits: current.hits + 1, resetAtMs: current.resetAtMs }
        : { hits: 1, resetAtMs: nowMs + windowMs };
    this.#windows.set(key, window);
    return { ...window };
  }

  async unhit(key: string, nowMs: number): Promise<void> {
    const current = this.#windows.get(key);
    if (current && current.resetAtMs > nowMs) current.hits = Math.max(0, current.hits - 1);
  }

  async reset(key: string): Promise<void> {
    this.#windows.delete(key);
  }

  async deleteEnded(nowMs: number): Promise<number> {
    let deleted = 0;
    for (const [key, window] of this.#windows) {
      if (window.resetAtMs <= nowMs) {
        this.#windows.delete(key);
        deleted += 1;
      }
    }
    return deleted;
  }
}
