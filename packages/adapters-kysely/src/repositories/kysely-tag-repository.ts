import type { Tag, TagBinding, TagType } from "@service-api/domain";
import type { TagRepository } from "@service-api/ports";
import type { Kysely, Selectable } from "kysely";
import { compiledByCount } from "../compiled-read.js";
import type { DatabaseSchema, TagTable } from "../schema.js";
import { updateAllBut } from "./rows.js";

const tagFromRow = (row: Selectable<TagTable>): Tag => ({
  id: row.id,
  workspaceId: row.workspace_id,
  type: row.type as TagType,
  name: row.name,
});

const tagsByIds = compiledByCount((db, count, ...ids) =>
  db
    .selectFrom("tags")
    .selectAll()
    .where("id", "in", ids.slice(0, count) as string[]),
);

const BINDING_COLUMNS = ["id", "workspace_id", "tag_id", "target_id", "created_at"] as const;
const insertBindings = compiledByCount((db, count, ...values) =>
  db
    .insertInto("tag_bindings")
    .values(
      Array.from({ length: count }, (_, row) =>
        Object.fromEntries(
          BINDING_COLUMNS.map((column, index) => [column, values[row * BINDING_COLUMNS.length + index]]),
        ),
      ) as { id: string; workspace_id: string; tag_id: string; target_id: string; created_at: number }[],
    )
    .onConflict((conflict) => conflict.columns(["tag_id", "target_id"]).doNothing()),
);

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
    const unique = [...new Set(ids)];
    if (unique.length === 0) return [];
    return (await tagsByIds(this.db, unique.length, ...unique)).map(tagFromRow);
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
    const values = bindings.flatMap((binding) => [
      binding.id,
      binding.workspaceId,
      binding.tagId,
      binding.targetId,
      binding.createdAt,
    ]);
    await insertBindings(this.db, bindings.length, ...values);
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
