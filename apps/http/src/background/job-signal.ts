/**
 * Tells this process's idle workers that a job was just queued here, so that they claim it now
 * rather than at their next poll. Jobs queued by other instances are found by polling.
 */
export class JobSignal {
  readonly #waiting = new Set<() => void>();
  /** A notice no worker was idle to hear: the next to idle looks again at once. */
  #missed = false;

  /** A job was committed: every idle worker looks for it. */
  notify(): void {
    if (this.#waiting.size === 0) this.#missed = true;
    for (const wake of [...this.#waiting]) wake();
  }

  /** Resolves at the next `notify`, or after `ms`, whichever comes first (or at once if `cancel`led). */
  wait(ms: number): { done: Promise<void>; cancel: () => void } {
    let wake!: () => void;
    if (this.#missed) {
      this.#missed = false;
      return { done: Promise.resolve(), cancel: () => {} };
    }
    const done = new Promise<void>((resolve) => {
      const timer = setTimeout(() => wake(), ms);
      timer.unref();
      wake = () => {
        clearTimeout(timer);
        this.#waiting.delete(wake);
        resolve();
      };
      this.#waiting.add(wake);
    });
    return { done, cancel: wake };
  }
}

/** `useCase`, its `execute` telling `signal` once it has resolved (its job committed). */
export function notifying<UseCase extends { execute(input: never): Promise<unknown> }>(
  useCase: UseCase,
  signal: JobSignal,
): UseCase {
  const execute = useCase.execute.bind(useCase) as (input: unknown) => Promise<unknown>;
  useCase.execute = (async (input: unknown) => {
    const result = await execute(input);
    signal.notify();
    return result;
  }) as UseCase["execute"];
  return useCase;
}
