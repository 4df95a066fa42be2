import type { SecretRepository } from "../../secret-repository.js";
import type { Snapshotting } from "./snapshotting.js";

export class InMemorySecretRepository implements SecretRepository, Snapshotting {
  #secrets = new Map<string, string>();

  snapshot(): unknown {
    return new Map(this.#secrets);
  }

  restore(snapshot: unknown): void {
    this.#secrets = snapshot as Map<string, string>;
  }

  async ensure(name: string, candidate: string): Promise<string> {
    const stored = this.#secrets.get(name);
    if (stored !== undefined) return stored;
    this.#secrets.set(name, candidate);
    return candidate;
  }
}
