import type { DocumentRepository, FileStore } from "@service-api/ports";
import type { FileDirectory, StagedFile } from "./file-directory.js";

/** What the directory store asks of the store: whether a file's row exists. */
export type UploadFileRows = Pick<DocumentRepository, "findUploadFile">;

/**
 * The bytes a store transaction replaces, written aside until it commits. A file's first bytes go
 * in place at once instead: a row committed without its bytes would be worse than bytes left
 * without a row, which no reader is given and the sweep removes.
 */
export class FileTransaction {
  readonly #staged = new Map<string, StagedFile>();

  constructor(private readonly directory: FileDirectory) {}

  async stage(fileId: string, bytes: Uint8Array): Promise<void> {
    const staged = await this.directory.stage(fileId, bytes);
    const replaced = this.#staged.get(fileId);
    this.#staged.set(fileId, staged);
    await replaced?.discard();
  }

  /** Where the bytes this transaction set aside for the file are; undefined when it set none aside. */
  stagedPath(fileId: string): string | undefined {
    return this.#staged.get(fileId)?.path;
  }

  /** Puts the bytes set aside in place: once the store transaction has committed. */
  async commit(): Promise<void> {
    const staged = [...this.#staged.values()];
    this.#staged.clear();
    for (const file of staged) await file.commit();
  }

  /** Removes the bytes set aside: the store transaction rolled back (or is run again). */
  async discard(): Promise<void> {
    const staged = [...this.#staged.values()];
    this.#staged.clear();
    await Promise.all(staged.map((file) => file.discard()));
  }
}

export interface DirectoryFileStoreOptions {
  /** The store transaction the repositories belong to, whose replacements wait for its commit. */
  transaction?: FileTransaction;
  /** For a snapshot's repositories: `put` is refused, as their other writes are. */
  readOnly?: boolean;
  /**
   * Where bytes stored before the directory was chosen are (the store's own `FileStore`): read
   * from there when the directory has none for a file that has a row.
   */
  fallback?: FileStore;
}

/**
 * Files' bytes in a directory (`FileDirectory`), going with the rows of the store whose
 * repositories `rows` belongs to (the same transaction, when there is one): `put` refuses a file
 * that has no row and `get` gives nothing once the row is gone. Bytes whose row is gone (deleted,
 * or never committed) stay on the disk until `sweep` removes them. Bytes put before are read from
 * `options.fallback`; they go with their row there, as before.
 */
export class DirectoryFileStore implements FileStore {
  constructor(
    private readonly directory: FileDirectory,
    private readonly rows: UploadFileRows,
    private readonly options: DirectoryFileStoreOptions = {},
  ) {}

  async put(fileId: string, bytes: Uint8Array): Promise<void> {
    if (this.options.readOnly) throw new Error("A snapshot only reads: it cannot store a file's bytes");
    if (!(await this.rows.findUploadFile(fileId)))
      throw new Error(`No uploaded file ${JSON.stringify(fileId)}: its bytes cannot be stored`);
    const { transaction } = this.options;
    if (transaction && (await this.directory.has(fileId))) await transaction.stage(fileId, bytes);
    else await this.directory.write(fileId, bytes);
  }

  async get(fileId: string): Promise<Uint8Array | undefined> {
    if (!(await this.rows.findUploadFile(fileId))) return undefined;
    const bytes = await this.directory.read(fileId, this.options.transaction?.stagedPath(fileId));
    return bytes ?? this.options.fallback?.get(fileId);
  }

  /**
   * Removes the files written more than `olderThanMs` before `now` whose row is gone, and the
   * temporary files of writes as old: how many it removed. Call it on the store's own repositories,
   * outside any transaction, with a grace longer than any transaction runs, so that the bytes of
   * one not yet committed stay. A file written again while the sweep runs stays. Stops early when
   * `signal` aborts. Asks for each file's row in turn: one call per file.
   */
  async sweep(olderThanMs: number, { now = Date.now(), signal }: SweepOptions = {}): Promise<number> {
    const writtenBefore = now - olderThanMs;
    // A write's temporary file is someone's write under way for a minute at least, whatever the grace.
    const temporaryBefore = now - Math.max(olderThanMs, TEMPORARY_FILE_GRACE_MS);
    let removed = 0;
    for await (const entry of this.directory.entries()) {
      if (signal?.aborted) break;
      if (entry.modifiedAt > (entry.fileId === undefined ? temporaryBefore : writtenBefore)) continue;
      if (entry.fileId !== undefined && (await this.rows.findUploadFile(entry.fileId))) continue;
      if (signal?.aborted) break;
      if (await this.directory.remove(entry)) removed += 1;
    }
    return removed;
  }
}

/** The least age at which a write's temporary file counts as left over. */
export const TEMPORARY_FILE_GRACE_MS = 60_000;

export interface SweepOptions {
  /** The time to count from, in ms since the epoch; default: now. */
  now?: number;
  signal?: AbortSignal;
}
