import {
  DirectoryFileStore,
  type DirectoryFileStoreOptions,
  type FileDirectory,
  FileTransaction,
} from "@service-api/adapters-node";
import type { Repositories, Store, StoreMonitor } from "@service-api/ports";

/** When the files directory is swept of bytes whose row is gone. */
export interface FileSweepTiming {
  /** How often, in ms; the first sweep runs as the store opens. */
  everyMs: number;
  /** How old bytes must be, in ms: longer than any transaction runs, whose rows are not yet committed. */
  graceMs: number;
}

export const DEFAULT_FILE_SWEEP: FileSweepTiming = { everyMs: 5 * 60_000, graceMs: 60 * 60_000 };

/**
 * `store`, its files' bytes in `directory` instead of the database: in its repositories, its
 * transactions' and its snapshots'. Every other member is the store's. Bytes left without a row
 * (a row deleted, a transaction rolled back after its write) are swept as the store opens and
 * every `timing.everyMs` after, until it closes; a failed sweep is told to the monitor.
 */
export function withFileDirectory(
  store: Store,
  directory: FileDirectory,
  { monitor, timing = DEFAULT_FILE_SWEEP }: { monitor?: StoreMonitor; timing?: FileSweepTiming } = {},
): Store {
  // The database's own file store stays the fallback: bytes stored before FILES_DIR was set are read.
  const withFiles = (repositories: Repositories, options: DirectoryFileStoreOptions = {}): Repositories => ({
    ...repositories,
    files: new DirectoryFileStore(directory, repositories.documents, {
      ...options,
      fallback: repositories.files,
    }),
  });
  const sweeps = sweepEvery(new DirectoryFileStore(directory, store.repositories.documents), timing, monitor);
  return {
    repositories: withFiles(store.repositories),
    transaction: async (work, options) => {
      // A transaction run again (a conflict lost) sets aside its replacements again: the last run's count.
      const runs: FileTransaction[] = [];
      const ran = await store
        .transaction((repositories) => {
          const transaction = new FileTransaction(directory);
          runs.push(transaction);
          return work(withFiles(repositories, { transaction }));
        }, options)
        .catch(async (error: unknown) => {
          await Promise.all(runs.map((run) => run.discard()));
          throw error;
        });
      // Replacements go in place once the rows are committed; a failure then (a disk failing: the
      // rows are in, the old bytes stay) rejects.
      const last = runs.pop();
      await Promise.all(runs.map((run) => run.discard()));
      await last?.commit();
      return ran;
    },
    snapshot: (work) => store.snapshot((repositories) => work(withFiles(repositories, { readOnly: true }))),
    ping: () => store.ping(),
    ...(store.connections && { connections: () => store.connections!() }),
    // The store closes at once, so that calls made after this one are refused; a sweep under way
    // stops at its next file.
    close: async () => {
      await Promise.all([store.close(), sweeps.stop()]);
    },
  };
}

/** Sweeps now and every `everyMs` (a timer that keeps no process alive), one sweep at a time. */
function sweepEvery(files: DirectoryFileStore, timing: FileSweepTiming, monitor: StoreMonitor | undefined) {
  const stopping = new AbortController();
  let running: Promise<void> | undefined;
  const sweep = () => {
    running ??= files
      .sweep(timing.graceMs, { signal: stopping.signal })
      .then(
        () => undefined,
        (error: unknown) => {
          if (stopping.signal.aborted) return;
          const failure = error instanceof Error ? error : new Error(String(error));
          monitor?.backgroundTaskFailed?.("sweep the files directory", failure);
        },
      )
      .finally(() => {
        running = undefined;
      });
  };
  sweep();
  const timer = setInterval(sweep, timing.everyMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      stopping.abort();
      await running;
    },
  };
}
