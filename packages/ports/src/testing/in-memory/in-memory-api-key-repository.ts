import type { ApiKey } from "@service-api/domain";
import type { ApiKeyRepository } from "../../api-key-repository.js";
import { AccessRevision } from "./access-revision.js";
import { byCreation, type Snapshotting } from "./snapshotting.js";

export class InMemoryApiKeyRepository implements ApiKeyRepository, Snapshotting {
  #keys = new Map<string, ApiKey>();

  constructor(private readonly access = new AccessRevision()) {}

  snapshot(): unknown {
    return structuredClone(this.#keys);
  }

  restore(snapshot: unknown): void {
    this.#keys = snapshot as Map<string, ApiKey>;
  }

  async list(filter: { workspaceId?: string; appId?: string } = {}): Promise<ApiKey[]> {
    const keys = [...this.#keys.values()].filter(
      (key) =>
        (filter.workspaceId === undefined || key.workspaceId === filter.workspaceId) &&
        (filter.appId === undefined || key.appId === filter.appId),
    );
    return structuredClone(keys.sort(byCreation));
  }

  async delete(id: string): Promise<boolean> {
    this.access.bump();
    return this.#keys.delete(id);
  }

  async save(key: ApiKey): Promise<void> {
    for (const other of this.#keys.values()) {
      if (other.id !== key.id && other.tokenHash === key.tokenHash)
        throw new Error("Duplicate API key token");
    }
    this.#keys.set(key.id, structuredClone(key));
    this.access.bump();
  }

  async findByTokenHash(tokenHash: string): Promise<ApiKey | undefined> {
    const key = [...this.#keys.values()].find((candidate) => candidate.tokenHash === tokenHash);
    return structuredClone(key);
  }

  async accessRevision(): Promise<number> {
    return this.access.value;
  }

  async recordUse(id: string, at: number): Promise<void> {
    const key = this.#keys.get(id);
    if (key) key.lastUsedAt = at;
  }
}
