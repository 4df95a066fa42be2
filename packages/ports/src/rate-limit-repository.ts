/** A key's hits in its current window. */
export interface RateLimitWindow {
  hits: number;
  /** When the window ends, in Unix milliseconds. */
  resetAtMs: number;
}

/**
 * Hit counters of rate limits, in fixed windows, shared by every process on the store. Keys are
 * opaque text; times are Unix milliseconds passed in, so every process counts alike. A call is not
 * held waiting for a lock another process holds on the whole database (SQLite's, during an
 * import): it is refused at once (`StoreUnavailableError`), and limits fail open rather than hold
 * the request they count.
 */
export interface RateLimitRepository {
  /**
   * Adds a hit to `key`'s window and returns it. A key without a window, or whose window ended at
   * or before `nowMs`, starts a new one with 1 hit, ending at `nowMs + windowMs`. Atomic: of
   * concurrent hits, none is lost.
   */
  hit(key: string, nowMs: number, windowMs: number): Promise<RateLimitWindow>;
  /** Takes one hit back from `key`'s window, never below 0; nothing for a window that has ended. */
  unhit(key: string, nowMs: number): Promise<void>;
  /** Forgets `key`'s window. */
  reset(key: string): Promise<void>;
  /** Forgets every window that ended at or before `nowMs`; returns how many. */
  deleteEnded(nowMs: number): Promise<number>;
}
