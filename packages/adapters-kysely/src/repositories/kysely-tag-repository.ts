import type { Tag, TagBinding, TagType } from "@service-api/domain";
import type { TagRepository } from "@service-api/ports";
import type { Kysely, Selectable } from "kysely";
import type { DatabaseSchema, TagTable } from "../schema.js";
import { updateAllBut } from "./rows.js";

const tagFromRow = (row: Selectable<TagTable>): Tag => ({
  id: row.id,
  workspaceId: row.workspace_id,
  type: row.type as TagType,
  name: row.name,
});

export class KyselyTagRepository implements TagRepository {
  constructor(private readonly db: Kysely<DatabaseSchema>) {}

  async save(tag: Tag): Promise<void> {
    const row = { id: tag.id, workspace_id: tag.workspaceId, type: tag.type, name: tag.name };
    await this.db
      .insertInto("tags")
      .values(row)
      .onConflict((conflict) => conflict.column("id").doUpdateSet(updateAllBut(row, "id")))
      .execute();
  }

  async findByIds(ids: readonly string[]): Promise<Tag[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom("tags")
      .selectAll()
      .where("id", "in", [...new Set(ids)])
      .execute();
    return rows.map(tagFromRow);
  }

  async listInWorkspace(workspaceId: string): Promise<Tag[]> {
    const rows = await this.db
      .selectFrom("tags")
      .selectAll()
      .where("workspace_id", "=", workspaceId)
      .orderBy("type")
      .orderBy("name")
      .orderBy("id")
      .execute();
    return rows.map(tagFromRow);
  }

  async bind(bindings: readonly TagBinding[]): Promise<void> {
    if (bindings.length === 0) return;
    // One statement: the unique (tag_id, target_id) constraint settles races, no check-then-insert.
    await this.db
      .insertInto("tag_bindings")
      .values(
        bindings.map((binding) => ({
          id: binding.id,
          workspace_id: binding.workspaceId,
          tag_id: binding.tagId,
          target_id: binding.targetId,
          created_at: binding.createdAt,
        })),
      )
      .onConflict((conflict) => conflict.columns(["tag_id", "target_id"]).doNothing())
      .execute();
  }

  async boundTagIds(targetId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom("tag_bindings")
      .select("tag_id")
      .where("target_id", "=", targetId)
      .orderBy("seq")
      .execute();
    return rows.map((row) => row.tag_id);
  }
}
