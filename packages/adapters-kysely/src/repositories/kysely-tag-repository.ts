import {
  type CountedTag,
  type Dataset,
  eligibleTagIds,
  type Tag,
  type TagBinding,
  type TagType,
} from "@service-api/domain";
import type { DatasetBinding, Renamed, SaveRefusal, TagRepository } from "@service-api/ports";
import { type Kysely, type QueryCreator, type RawBuilder, type Selectable, sql } from "kysely";
import {
  type AmongIds,
  compiledByCount,
  compiledForIds,
  compiledRead,
  LARGEST_COMPILED_COUNT,
  runBuilt,
} from "../compiled-read.js";
import type { DatabaseSchema, TagTable } from "../schema.js";
import { rowsOf, type SqlFeatures } from "../sql-features.js";
import { DATASET_COLUMNS_PREFIXED, datasetFromPrefixed } from "./dataset-rows.js";
import { updateAllBut } from "./rows.js";

export const tagFromRow = (row: Omit<Selectable<TagTable>, "binding_count">): Tag => ({
  id: row.id,
  workspaceId: row.workspace_id,
  type: row.type as TagType,
  name: row.name,
  createdAt: Number(row.created_at),
});

const countedFromRow = (row: Selectable<TagTable>): CountedTag => ({
  ...tagFromRow(row),
  bindingCount: Number(row.binding_count),
});

const tagRow = (tag: Tag) => ({
  id: tag.id,
  workspace_id: tag.workspaceId,
  type: tag.type,
  name: tag.name,
  created_at: tag.createdAt,
});

const tagsByIds = compiledForIds((db, among) => db.selectFrom("tags").selectAll().where(among("id")));

const TAG_COLUMNS = ["tags.id", "tags.workspace_id", "tags.type", "tags.name", "tags.created_at"] as const;
const tagsBoundTo = compiledForIds((db, among) =>
  db
    .selectFrom("tag_bindings")
    .innerJoin("tags", "tags.id", "tag_bindings.tag_id")
    .select(["tag_bindings.target_id", ...TAG_COLUMNS])
    .where(among("tag_bindings.target_id"))
    .orderBy("tags.name")
    .orderBy("tags.id"),
);

/**
 * The dataset (columns prefixed `ds_`) and a row per tag bound to it: a knowledge tag's columns,
 * nulls for none or for a tag of another type.
 */
const datasetWithBoundTags = compiledRead((db, workspaceId: string, datasetId: string) =>
  db
    .selectFrom("datasets as ds")
    .leftJoin("tag_bindings as binding", "binding.target_id", "ds.id")
    .leftJoin("tags as tag", (join) =>
      join.onRef("tag.id", "=", "binding.tag_id").on("tag.type", "=", "knowledge"),
    )
    .select(DATASET_COLUMNS_PREFIXED as never[])
    .select(["tag.id", "tag.workspace_id", "tag.type", "tag.name", "tag.created_at"])
    .where("ds.id", "=", datasetId)
    .where("ds.workspace_id", "=", workspaceId)
    .orderBy("tag.name")
    .orderBy("tag.id"),
);

/** The dataset and the tags from rows of a tag beside the dataset's columns; none without the dataset. */
function datasetAndTags(rows: unknown[]): { dataset: Dataset | undefined; tags: Tag[] } {
  const tagRows = rows as (Record<string, unknown> & Omit<Selectable<TagTable>, "binding_count">)[];
  const [first] = tagRows;
  if (!first) return { dataset: undefined, tags: [] };
  return {
    dataset: datasetFromPrefixed(first),
    tags: tagRows.filter((row) => row.id !== null).map(tagFromRow),
  };
}

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

/**
 * Binds the asked tags (`asked`: rows of a binding id and a tag id) that are the workspace's
 * knowledge tags to its dataset, in tag order (so concurrent binds take the pairs in one order);
 * nothing without the dataset. Pairs already bound keep their binding. PostgreSQL only (a WITH
 * that writes). With `lockingTags`, each tag is locked as it is read (KEY SHARE, what the foreign
 * key takes), so a tag deleted meanwhile is passed over, as any id that names no tag, where the
 * statement without it fails on the foreign key; it is the second try, as a lock costs every bind a
 * commit's flush and the tag rows a multixact.
 */
function bindEligible(
  db: QueryCreator<DatabaseSchema>,
  asked: RawBuilder<unknown>,
  workspaceId: string,
  datasetId: string,
  createdAt: number,
  lockingTags: boolean,
) {
  const eligible = db
    .selectFrom(asked.as("asked") as never as "tags")
    .innerJoin("tags as tag", "tag.id", sql.ref("asked.column2") as never)
    .innerJoin("datasets as ds", (join) =>
      join.on("ds.id", "=", datasetId).on("ds.workspace_id", "=", workspaceId),
    )
    .select([
      sql.ref("asked.column1").as("id") as never,
      "tag.workspace_id",
      "tag.id as tag_id",
      "ds.id as target_id",
      sql`cast(${createdAt} as bigint)`.as("created_at"),
    ])
    .where("tag.workspace_id", "=", workspaceId)
    .where("tag.type", "=", "knowledge")
    .orderBy("tag.id");
  return db
    .insertInto("tag_bindings")
    .columns(["id", "workspace_id", "tag_id", "target_id", "created_at"])
    .expression(lockingTags ? eligible.forKeyShare("tag" as never) : eligible)
    .onConflict((conflict) => conflict.columns(["tag_id", "target_id"]).doNothing());
}

/**
 * PostgreSQL: `write` as a data-modifying WITH, and in the same statement whether the workspace
 * has the dataset (`found`), so a write that checks its dataset needs no read to say why it wrote
 * nothing.
 */
const writtenWithDatasetFound = (
  db: Kysely<DatabaseSchema>,
  workspaceId: string,
  datasetId: string,
  write: (
    w: QueryCreator<DatabaseSchema>,
  ) => ReturnType<typeof bindEligible> | ReturnType<typeof unbindEligible>,
) =>
  db
    .with("written", write)
    .selectFrom("datasets")
    .select((eb) => eb.fn.countAll<number | string>().as("found"))
    .where("id", "=", datasetId)
    .where("workspace_id", "=", workspaceId);

/** The asked tags as a table of `count` rows, each of two parameters: a binding's id, a tag's id. */
const askedAsValues = (count: number, values: readonly unknown[]) =>
  sql`(values ${sql.join(
    Array.from({ length: count }, (_, row) => sql`(${values[2 * row]}, ${values[2 * row + 1]})`),
  )})`;

/** The binding for up to `LARGEST_COMPILED_COUNT` tags, compiled (named) per count. */
const bindingAndFindingDataset = (lockingTags: boolean) =>
  compiledByCount<{ found: number | string }>((db, count, ...args) => {
    const [workspaceId, datasetId, createdAt] = args.slice(2 * count) as [string, string, number];
    return writtenWithDatasetFound(db, workspaceId, datasetId, (w) =>
      bindEligible(w, askedAsValues(count, args), workspaceId, datasetId, createdAt, lockingTags),
    );
  });
const bindAndFindDataset = {
  unlocked: bindingAndFindingDataset(false),
  locked: bindingAndFindingDataset(true),
};

const datasetIdInWorkspace = compiledRead((db, workspaceId: string, datasetId: string) =>
  db.selectFrom("datasets").select("id").where("id", "=", datasetId).where("workspace_id", "=", workspaceId),
);

/**
 * Deletes the dataset's bindings of the workspace's knowledge tags among the ids; none without it.
 * Where rows lock, the tags first, in id order: each removed binding's trigger takes its tag's row
 * (its count), and a tag's delete takes that row before the bindings it cascades to. Taken after
 * the bindings, in the order they were found, unbinds and deletes waited on each other in a circle.
 */
function unbindEligible(
  db: QueryCreator<DatabaseSchema>,
  among: AmongIds,
  features: SqlFeatures,
  workspaceId: string,
  datasetId: string,
) {
  const eligible = db
    .selectFrom("tags")
    .select("tags.id")
    .where(among("tags.id"))
    .where("tags.workspace_id", "=", workspaceId)
    .where("tags.type", "=", "knowledge");
  return db
    .deleteFrom("tag_bindings")
    .where("target_id", "=", (eb) =>
      eb
        .selectFrom("datasets")
        .select("id")
        .where("id", "=", datasetId)
        .where("workspace_id", "=", workspaceId),
    )
    .where(among("tag_bindings.tag_id"))
    .where(
      "tag_bindings.tag_id",
      "in",
      features.locksRows ? eligible.orderBy("tags.id").forNoKeyUpdate() : eligible,
    );
}

const unbindInDataset = compiledForIds((db, among, features, workspaceId, datasetId) =>
  unbindEligible(db, among, features, workspaceId as string, datasetId as string),
);

const unbindAndFindDataset = compiledForIds<{ found: number | string }>(
  (db, among, features, workspaceId, datasetId) =>
    writtenWithDatasetFound(db, workspaceId as string, datasetId as string, (w) =>
      unbindEligible(w, among, features, workspaceId as string, datasetId as string),
    ),
);

const insertTag = compiledRead(
  (db, id: string, workspaceId: string, type: string, name: string, createdAt: number) =>
    db
      .insertInto("tags")
      .values({ id, workspace_id: workspaceId, type, name, created_at: createdAt })
      .onConflict((conflict) => conflict.doNothing())
      .returning("id"),
);
const deleteTag = compiledRead((db, id: string, workspaceId: string, type: string) =>
  db
    .deleteFrom("tags")
    .where("id", "=", id)
    .where("workspace_id", "=", workspaceId)
    .where("type", "=", type)
    .returning("id"),
);

/** Compiled once (on PostgreSQL, named): renames run as often as reads. */
const renameTag = compiledRead((db, tagId: string, workspaceId: string, type: string, name: string) =>
  db
    .updateTable("tags")
    .set({ name })
    .where("id", "=", tagId)
    .where("workspace_id", "=", workspaceId)
    .where("type", "=", type)
    .returningAll(),
);
const tagOfKind = compiledRead((db, workspaceId: string, type: string, tagId: string) =>
  db
    .selectFrom("tags")
    .selectAll()
    .where("id", "=", tagId)
    .where("workspace_id", "=", workspaceId)
    .where("type", "=", type),
);

const countedOfKind = compiledRead((db, workspaceId: string, type: string) =>
  db
    .selectFrom("tags")
    .selectAll()
    .where("workspace_id", "=", workspaceId)
    .where("type", "=", type)
    .orderBy("created_at", "desc")
    .orderBy("id"),
);

export class KyselyTagRepository implements TagRepository {
  constructor(
    private readonly db: Kysely<DatabaseSchema>,
    private readonly features: SqlFeatures,
  ) {}

  async save(tag: Tag): Promise<SaveRefusal | undefined> {
    const row = tagRow(tag);
    // One statement: a name another tag of the kind holds selects no row to write, and a stored tag
    // of another workspace or type is left as it is. Only when nothing was written, a read says why.
    const written = await this.db
      .insertInto("tags")
      .columns(["id", "workspace_id", "type", "name", "created_at"])
      .expression(
        this.db
          .selectNoFrom([
            sql.val(row.id).as("id"),
            sql.val(row.workspace_id).as("workspace_id"),
            sql.val(row.type).as("type"),
            sql.val(row.name).as("name"),
            sql`cast(${row.created_at} as bigint)`.as("created_at"),
          ])
          .where(({ not, exists, selectFrom }) =>
            not(
              exists(
                selectFrom("tags")
                  .select("id")
                  .where("workspace_id", "=", row.workspace_id)
                  .where("type", "=", row.type)
                  .where("name", "=", row.name)
                  .where("id", "<>", row.id),
              ),
            ),
          ),
      )
      .onConflict((conflict) =>
        conflict
          .column("id")
          .doUpdateSet(updateAllBut(row, "id"))
          .whereRef("tags.workspace_id", "=", "excluded.workspace_id")
          .whereRef("tags.type", "=", "excluded.type"),
      )
      .returning("id")
      .execute();
    if (written.length > 0) return undefined;
    const [stored] = await tagsByIds(this.db, this.features, [tag.id]);
    if (stored && stored.workspace_id !== tag.workspaceId) return "owned_elsewhere";
    return stored && stored.type !== tag.type ? "type_differs" : "name_taken";
  }

  async create(tag: Tag): Promise<boolean> {
    // The unique (workspace, type, name) index settles races: a taken name inserts nothing.
    const inserted = await insertTag(this.db, tag.id, tag.workspaceId, tag.type, tag.name, tag.createdAt);
    return inserted.length > 0;
  }

  async findInWorkspace(workspaceId: string, type: TagType, tagId: string): Promise<CountedTag | undefined> {
    const [row] = await tagOfKind(this.db, workspaceId, type, tagId);
    return row && countedFromRow(row);
  }

  async findBoundToDataset(workspaceId: string, datasetId: string) {
    return datasetAndTags(await datasetWithBoundTags(this.db, workspaceId, datasetId));
  }

  async findByIds(ids: readonly string[]): Promise<Tag[]> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return [];
    return (await tagsByIds(this.db, this.features, unique)).map(tagFromRow);
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

  async listCounted(workspaceId: string, type: TagType): Promise<CountedTag[]> {
    return (await countedOfKind(this.db, workspaceId, type)).map(countedFromRow);
  }

  async rename(
    workspaceId: string,
    type: TagType,
    tagId: string,
    name: string,
  ): Promise<Renamed<CountedTag>> {
    // The unique (workspace, type, name) index refuses a taken name; no read first.
    try {
      const [row] = await renameTag(this.db, tagId, workspaceId, type, name);
      return row ? countedFromRow(row) : "not_found";
    } catch (error) {
      if (this.features.isUniqueViolation(error)) return "name_taken";
      throw error;
    }
  }

  async delete(workspaceId: string, type: TagType, tagId: string): Promise<boolean> {
    // One statement: the bindings go with the tag (foreign key, on delete cascade).
    return (await deleteTag(this.db, tagId, workspaceId, type)).length > 0;
  }

  async bind(bindings: readonly TagBinding[]): Promise<void> {
    if (bindings.length === 0) return;
    // One statement: the unique (tag_id, target_id) constraint settles races, no check-then-insert.
    // In tag order: concurrent binds then take the pairs' index entries and the tags' counters
    // (kept by trigger) in one order, and never wait on each other in a circle.
    const inOrder = [...bindings].sort((a, b) => (a.tagId < b.tagId ? -1 : a.tagId > b.tagId ? 1 : 0));
    const values = inOrder.flatMap((binding) => [
      binding.id,
      binding.workspaceId,
      binding.tagId,
      binding.targetId,
      binding.createdAt,
    ]);
    if (bindings.length <= LARGEST_COMPILED_COUNT) {
      await insertBindings(this.db, bindings.length, ...values);
      return;
    }
    // More bindings than kept statements: their values as one parameter, however many.
    const rows = inOrder.map(({ id, workspaceId, tagId, targetId, createdAt }) => [
      id,
      workspaceId,
      tagId,
      targetId,
      String(createdAt),
    ]);
    await sql`insert into tag_bindings (id, workspace_id, tag_id, target_id, created_at)
      select v.column1, v.column2, v.column3, v.column4, cast(v.column5 as bigint)
      from ${rowsOf(this.features, rows, BINDING_COLUMNS.length)} as v
      where true
      order by v.column3
      on conflict (tag_id, target_id) do nothing`.execute(this.db);
  }

  async unbind(targetId: string, tagIds: readonly string[]): Promise<void> {
    if (tagIds.length === 0) return;
    await this.db
      .deleteFrom("tag_bindings")
      .where("target_id", "=", targetId)
      .where((eb) =>
        this.features.inList(eb.ref("tag_id"), this.features.listParameter([...new Set(tagIds)])),
      )
      .execute();
  }

  async bindToDataset(binding: DatasetBinding): Promise<boolean> {
    try {
      return await this.#bindToDataset(binding, false);
    } catch (error) {
      // A tag deleted after the statement read it (PostgreSQL), or between the reads and the
      // insert (SQLite: separate statements). Once more, locking the tags as they are read where
      // rows lock, so that none can go: a tag gone is passed over, as any id that names no tag.
      if (!this.features.isForeignKeyViolation(error)) throw error;
      return this.#bindToDataset(binding, true);
    }
  }

  async #bindToDataset(
    { workspaceId, datasetId, tags, createdAt }: DatasetBinding,
    lockingTags: boolean,
  ): Promise<boolean> {
    if (this.features.modifyingCtes && tags.length > 0) {
      const [row] = await (tags.length > LARGEST_COMPILED_COUNT
        ? runBuilt(
            this.db,
            writtenWithDatasetFound(this.db, workspaceId, datasetId, (w) =>
              bindEligible(w, this.askedAsOneParameter(tags), workspaceId, datasetId, createdAt, lockingTags),
            ).compile(),
          )
        : bindAndFindDataset[lockingTags ? "locked" : "unlocked"](
            this.db,
            tags.length,
            ...tags.flatMap(({ bindingId, tagId }) => [bindingId, tagId]),
            workspaceId,
            datasetId,
            createdAt,
          ));
      return Number(row?.found ?? 0) > 0;
    }
    // No tags to bind, or a WITH cannot write (SQLite, in process, where statements cost no round
    // trip and point reads apart run fastest): the dataset, the tags, the domain's rule, the insert.
    const [found] = await datasetIdInWorkspace(this.db, workspaceId, datasetId);
    if (!found) return false;
    const asked = tags.map(({ tagId }) => tagId);
    const eligible = new Set(eligibleTagIds(asked, await this.findByIds(asked), workspaceId));
    await this.bind(
      tags
        .filter(({ tagId }) => eligible.has(tagId))
        .map(({ tagId, bindingId }) => ({
          id: bindingId,
          workspaceId,
          tagId,
          targetId: datasetId,
          createdAt,
        })),
    );
    return true;
  }

  /** The tags asked for, past the kept statements' counts: one parameter, however many. */
  private askedAsOneParameter(tags: DatasetBinding["tags"]) {
    return rowsOf(
      this.features,
      tags.map(({ bindingId, tagId }) => [bindingId, tagId]),
      2,
    );
  }

  async unbindFromDataset(workspaceId: string, datasetId: string, tagIds: readonly string[]) {
    const unique = [...new Set(tagIds)];
    if (this.features.modifyingCtes) {
      const [row] = await unbindAndFindDataset(this.db, this.features, unique, workspaceId, datasetId);
      return Number(row?.found ?? 0) > 0;
    }
    const [found] = await datasetIdInWorkspace(this.db, workspaceId, datasetId);
    if (!found) return false;
    if (unique.length > 0) await unbindInDataset(this.db, this.features, unique, workspaceId, datasetId);
    return true;
  }

  async boundTagIds(targetId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom("tag_bindings")
      .select("tag_id")
      .where("target_id", "=", targetId)
      .orderBy("tag_id")
      .execute();
    return rows.map((row) => row.tag_id);
  }

  async boundTags(targetIds: readonly string[]): Promise<Map<string, Tag[]>> {
    const unique = [...new Set(targetIds)];
    const bound = new Map<string, Tag[]>(unique.map((id) => [id, []]));
    if (unique.length === 0) return bound;
    for (const row of await tagsBoundTo(this.db, this.features, unique)) {
      bound.get(row.target_id)?.push(tagFromRow(row));
    }
    return bound;
  }
}
