/**
 * The calls of one store that wait for a lock another connection holds: one of them (the first)
 * tries again after each pause, the others wait for it to stop trying, because it got the lock or
 * gave up. However many calls wait, the database sees one try per pause, not one per call.
 */
export class LockWaits {
  #leader: Promise<void> | undefined;

  /**
   * Makes the caller the one that tries, when none does: then a function to call once it stops
   * trying (whatever the outcome), which lets the others try; undefined while another one tries.
   */
  lead(): (() => void) | undefined {
    if (this.#leader) return undefined;
    let stop!: () => void;
    const leader = new Promise<void>((resolve) => {
      stop = resolve;
    });
    this.#leader = leader;
    return () => {
      if (this.#leader === leader) this.#leader = undefined;
      stop();
    };
  }

  /** Resolves when the call that tries stops trying, or after `ms`, whichever comes first. */
  followed(ms: number): Promise<void> {
    const leader = this.#leader;
    if (!leader) return Promise.resolve();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
    });
    return Promise.race([leader, timedOut]).finally(() => clearTimeout(timer));
  }
}
