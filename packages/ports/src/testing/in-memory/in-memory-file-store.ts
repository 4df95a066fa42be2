import type { FileStore } from "../../file-store.js";
import type { Snapshotting } from "./snapshotting.js";

/** Files' bytes in memory; a file whose row is gone has none (as a database's cascade deletes them). */
export class InMemoryFileStore implements FileStore, Snapshotting {
  #bytes = new Map<string, Uint8Array>();

  constructor(private readonly hasFile: (fileId: string) => boolean) {}

  snapshot(): unknown {
    return new Map(this.#bytes);
  }

  restore(snapshot: unknown): void {
    this.#bytes = snapshot as Map<string, Uint8Array>;
  }

  async put(fileId: string, bytes: Uint8Array): Promise<void> {
    if (!this.hasFile(fileId)) throw new Error(`No uploaded file ${fileId} to store bytes for`);
    this.#bytes.set(fileId, bytes.slice());
  }

  async get(fileId: string): Promise<Uint8Array | undefined> {
    if (!this.hasFile(fileId)) {
      this.#bytes.delete(fileId);
      return undefined;
    }
    return this.#bytes.get(fileId)?.slice();
  }
}
