import type { ApiKey } from "@service-api/domain";

/** API keys, held by the hash of their token only. */
export interface ApiKeyRepository {
  /** Inserts or replaces the key with this id. Token hashes are unique across all keys. */
  save(key: ApiKey): Promise<void>;
  /** The key whose token hashes to `tokenHash`, of either kind. */
  findByTokenHash(tokenHash: string): Promise<ApiKey | undefined>;
  /** Sets the key's last use; a missing key is ignored. */
  recordUse(id: string, at: number): Promise<void>;
  /** Keys, oldest first (then by id), optionally only those of one workspace or one app. */
  list(filter?: { workspaceId?: string; appId?: string }): Promise<ApiKey[]>;
  /** Deletes the key; false when there was none. A deleted key authenticates nothing. */
  delete(id: string): Promise<boolean>;
  /**
   * A number that changes whenever a key, an app or a workspace is changed or deleted, in any
   * process sharing the store (recording a key's use aside): while it stays the same, what a key
   * granted still holds, so it can be kept instead of read again. A store may show a change a
   * moment after it commits (PostgreSQL: when its notification arrives), never later than that.
   */
  accessRevision(): Promise<number>;
}
