/**
 * How a call to a thread failed, other than by its own answer: `out-of-memory`, `crashed` (an
 * uncaught error, `process.exit`, a thread that could not start) and `timed-out` end the thread
 * (the pool replaces it); `closed` is the pool's `close()`; `failed` is an error the call threw,
 * answered by a thread that goes on serving.
 */
export type ThreadFailureKind = "out-of-memory" | "crashed" | "timed-out" | "closed" | "failed";

export class ThreadFailure extends Error {
  override readonly name = "ThreadFailure";
  readonly kind: ThreadFailureKind;
  /** What happened, said of the thread: `ran out of memory (over 512 MB)`, `took longer than 120 s`. */
  readonly happened: string;

  constructor(kind: ThreadFailureKind, happened: string) {
    super(`A thread ${happened}.`);
    this.kind = kind;
    this.happened = happened;
  }
}

/** Why a thread ended by itself, from its last `error` event and its exit code. */
export function endFailure(error: Error | undefined, exitCode: number, memoryMb: number): ThreadFailure {
  if (error === undefined) return new ThreadFailure("crashed", `stopped (exit code ${exitCode})`);
  if ((error as NodeJS.ErrnoException).code === "ERR_WORKER_OUT_OF_MEMORY") {
    return new ThreadFailure("out-of-memory", `ran out of memory (over ${memoryMb} MB)`);
  }
  return new ThreadFailure("crashed", `crashed (${error.message})`);
}
