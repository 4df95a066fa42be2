import type { ApiKey } from "@service-api/domain";
import type { ApiKeyRepository } from "@service-api/ports";
import type { Kysely, Selectable } from "kysely";
import { compiledRead } from "../compiled-read.js";
import type { ApiKeyTable, DatabaseSchema } from "../schema.js";
import { updateAllBut } from "./rows.js";

function apiKeyFromRow(row: Selectable<ApiKeyTable>): ApiKey {
  const common = {
    id: row.id,
    workspaceId: row.workspace_id,
    tokenHash: row.token_hash,
    displayPrefix: row.display_prefix,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
  };
  return row.kind === "app" && row.app_id !== null
    ? { ...common, kind: "app", appId: row.app_id }
    : { ...common, kind: "dataset", appId: null };
}

const keyByHash = compiledRead((db, tokenHash: string) =>
  db.selectFrom("api_keys").selectAll().where("token_hash", "=", tokenHash),
);

const accessRevision = compiledRead((db) =>
  db.selectFrom("access_revision").select("value").where("id", "=", 1),
);

export class KyselyApiKeyRepository implements ApiKeyRepository {
  constructor(
    private readonly db: Kysely<DatabaseSchema>,
    /** The revision when known without a query; undefined (or absent) means read it. */
    private readonly knownAccessRevision: () => number | undefined = () => undefined,
  ) {}

  async save(key: ApiKey): Promise<void> {
    const row = {
      id: key.id,
      kind: key.kind,
      workspace_id: key.workspaceId,
      app_id: key.appId,
      token_hash: key.tokenHash,
      display_prefix: key.displayPrefix,
      created_at: key.createdAt,
      last_used_at: key.lastUsedAt,
    };
    await this.db
      .insertInto("api_keys")
      .values(row)
      .onConflict((conflict) => conflict.column("id").doUpdateSet(updateAllBut(row, "id")))
      .execute();
  }

  async findByTokenHash(tokenHash: string): Promise<ApiKey | undefined> {
    const [row] = await keyByHash(this.db, tokenHash);
    return row && apiKeyFromRow(row);
  }

  async accessRevision(): Promise<number> {
    const known = this.knownAccessRevision();
    if (known !== undefined) return known;
    const [row] = await accessRevision(this.db);
    if (!row) throw new Error("The access revision is missing: migration 0004 has not run");
    return Number(row.value);
  }

  async recordUse(id: string, at: number): Promise<void> {
    await this.db.updateTable("api_keys").set({ last_used_at: at }).where("id", "=", id).execute();
  }

  async list(filter: { workspaceId?: string; appId?: string } = {}): Promise<ApiKey[]> {
    let query = this.db.selectFrom("api_keys").selectAll().orderBy("created_at").orderBy("id");
    if (filter.workspaceId !== undefined) query = query.where("workspace_id", "=", filter.workspaceId);
    if (filter.appId !== undefined) query = query.where("app_id", "=", filter.appId);
    return (await query.execute()).map(apiKeyFromRow);
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom("api_keys").where("id", "=", id).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }
}
