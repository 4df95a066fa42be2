import type { ApiKey } from "@service-api/domain";
import type { ApiKeyRepository } from "../../api-key-repository.js";

export class InMemoryApiKeyRepository implements ApiKeyRepository {
  readonly #keys = new Map<string, ApiKey>();

  async save(key: ApiKey): Promise<void> {
    for (const other of this.#keys.values()) {
      if (other.id !== key.id && other.tokenHash === key.tokenHash)
        throw new Error("Duplicate API key token");
    }
    this.#keys.set(key.id, structuredClone(key));
  }

  async findByTokenHash(tokenHash: string): Promise<ApiKey | undefined> {
    const key = [...this.#keys.values()].find((candidate) => candidate.tokenHash === tokenHash);
    return structuredClone(key);
  }

  async recordUse(id: string, at: number): Promise<void> {
    const key = this.#keys.get(id);
    if (key) key.lastUsedAt = at;
  }
}
