import type { DataSourceType, Dataset, DocForm } from "@service-api/domain";
import type { DatasetFilter, DatasetOverview, DatasetRepository } from "@service-api/ports";
import { type ExpressionBuilder, type Kysely, type QueryCreator, sql } from "kysely";
import { compiledRead, compiledReadWith } from "../compiled-read.js";
import type { DatabaseSchema, Flag } from "../schema.js";
import type { SqlFeatures } from "../sql-features.js";
import { type DatasetRow, type DatasetScope, datasetFromRow, withAndWithoutServing } from "./dataset-rows.js";
import { fieldFromRow } from "./kysely-metadata-repository.js";
import { tagFromRow } from "./kysely-tag-repository.js";
import { jsonRows, toFlag, updateAllBut } from "./rows.js";

type OverviewRow = DatasetRow & {
  author_name: string | null;
  first_source: string | null;
  first_form: string | null;
  /** JSON arrays, parsed or as text as the driver answers them. */
  tag_rows: unknown;
  field_rows: unknown;
};

function overviewFromRow(row: OverviewRow): DatasetOverview {
  return {
    dataset: datasetFromRow(row),
    counts: {
      documents: Number(row.document_count),
      availableDocuments: Number(row.available_document_count),
      words: Number(row.word_count),
    },
    firstDocument:
      row.first_source !== null && row.first_form !== null
        ? { dataSourceType: row.first_source as DataSourceType, docForm: row.first_form as DocForm }
        : undefined,
    authorName: row.author_name,
    tags: jsonRows<Parameters<typeof tagFromRow>[0]>(row.tag_rows).map(tagFromRow),
    fields: jsonRows<Parameters<typeof fieldFromRow>[0]>(row.field_rows).map(fieldFromRow),
  };
}

/**
 * The creator's name, the first document's kind, and where reads are gathered the knowledge tags
 * and the fields as JSON arrays: index seeks, whatever the number of documents, in the dataset's
 * own statement. Elsewhere the overview's tags and fields are empty here and `readSeparately` reads them.
 */
const aroundDataset = (features: SqlFeatures) => (eb: ExpressionBuilder<DatabaseSchema, "datasets">) => {
  const firstDocument = eb
    .selectFrom("documents")
    .whereRef("documents.dataset_id", "=", "datasets.id")
    .orderBy("documents.position")
    .orderBy("documents.id")
    // Written in, not a parameter: PostgreSQL's generic plan assumes an unknown limit keeps a tenth
    // of the rows, looks dearer than a custom plan, and so the statement is planned on every call.
    .limit(sql.lit(1));
  return [
    eb
      .selectFrom("members")
      .select("members.name")
      .whereRef("members.id", "=", "datasets.created_by")
      .as("author_name"),
    firstDocument.select("documents.data_source_type").as("first_source"),
    firstDocument.select("documents.doc_form").as("first_form"),
    ...(features.gathersReads ? labelsOf(features, eb) : []),
  ];
};

const labelsOf = (features: SqlFeatures, eb: ExpressionBuilder<DatabaseSchema, "datasets">) => [
  features
    .jsonArrayFrom(
      eb
        .selectFrom("tag_bindings")
        .innerJoin("tags", "tags.id", "tag_bindings.tag_id")
        .select(["tags.id", "tags.workspace_id", "tags.type", "tags.name", "tags.created_at"])
        .whereRef("tag_bindings.target_id", "=", "datasets.id")
        .where("tags.type", "=", "knowledge")
        .orderBy("tags.name")
        .orderBy("tags.id"),
    )
    .as("tag_rows"),
  features
    .jsonArrayFrom(
      eb
        .selectFrom("metadata_fields")
        .select(["id", "dataset_id", "name", "type", "created_at"])
        .whereRef("metadata_fields.dataset_id", "=", "datasets.id")
        .orderBy("created_at")
        .orderBy("position")
        .orderBy("id"),
    )
    .as("field_rows"),
];

const datasetInWorkspace = compiledRead((db, workspaceId: string, datasetId: string) =>
  db.selectFrom("datasets").selectAll().where("id", "=", datasetId).where("workspace_id", "=", workspaceId),
);

const overviewInWorkspace = compiledReadWith((db, features, workspaceId: string, datasetId: string) =>
  db
    .selectFrom("datasets")
    .selectAll()
    .select(aroundDataset(features))
    .where("id", "=", datasetId)
    .where("workspace_id", "=", workspaceId),
);

/**
 * Shows or hides the built-in fields, compiled once (on PostgreSQL, named) for a dataset that
 * exists, or that serves the workspace (`ServedTo`, `scoped`). `change` writes when they are not so
 * yet; `changeAndFindDataset` (PostgreSQL) does too, and says in the same statement whether the
 * dataset was there; `dataset` reads only that.
 */
const builtInToggle = (scoped: DatasetScope) => {
  const change = (
    db: QueryCreator<DatabaseSchema>,
    datasetId: string,
    enabled: Flag,
    was: Flag,
    updatedAt: number,
    servedTo: string | undefined,
  ) =>
    db
      .updateTable("datasets")
      .set({ built_in_field_enabled: enabled, updated_at: updatedAt })
      .where("id", "=", scoped(db, datasetId, servedTo))
      .where("built_in_field_enabled", "=", was)
      .returning("id");
  return {
    change: compiledRead(change),
    dataset: compiledRead(scoped),
    changeAndFindDataset: compiledRead(
      (db, datasetId: string, enabled: Flag, was: Flag, updatedAt: number, servedTo: string | undefined) =>
        db
          .with("changed", (w) => change(w, datasetId, enabled, was, updatedAt, servedTo))
          .selectFrom(scoped(db, datasetId, servedTo).as("dataset"))
          .leftJoin("changed", (join) => join.onTrue())
          .select(["dataset.id", "changed.id as changed"]),
    ),
  };
};
const builtInTogglesFor = withAndWithoutServing(builtInToggle);

/** What List Datasets asks of the workspace's datasets: a name containing `keyword`, every tag of `tags`. */
interface MatchingDatasets {
  keyword: string | undefined;
  /** The tags as one `listParameter`, and how many there are. */
  tags: { list: unknown; count: number } | undefined;
}

const datasetsMatching = (
  db: Kysely<DatabaseSchema>,
  features: SqlFeatures,
  workspaceId: string,
  { keyword, tags }: MatchingDatasets,
) => {
  let matching = db.selectFrom("datasets").where("workspace_id", "=", workspaceId);
  if (keyword !== undefined) matching = matching.where(features.containsText("name", keyword));
  if (tags === undefined) return matching;
  // Bound to every tag asked; an id that is not a knowledge tag of the workspace matches nothing.
  return matching.where("id", "in", (eb) =>
    eb
      .selectFrom("tag_bindings")
      .innerJoin("tags", "tags.id", "tag_bindings.tag_id")
      .select("tag_bindings.target_id")
      .where("tags.workspace_id", "=", workspaceId)
      .where("tags.type", "=", "knowledge")
      .where(features.inList(sql.ref("tag_bindings.tag_id"), tags.list))
      .groupBy("tag_bindings.target_id")
      .having((eb) => eb.fn.countAll(), "=", tags.count),
  );
};

/**
 * A page of List Datasets, newest first, each row with its overview and the total matching (an
 * uncorrelated sub-select, counted once). Compiled once (on PostgreSQL, named) for each of the four
 * filters: none, a keyword, tags, both. The tags go as one parameter, so their number does not
 * change the statement.
 */
const datasetPage = (filtered: { keyword: boolean; tags: boolean }) =>
  compiledReadWith(
    (
      db,
      features,
      workspaceId: string,
      keyword: string,
      tagList: unknown,
      tagCount: number,
      limit: number,
      offset: number,
    ) => {
      const matching = datasetsMatching(db, features, workspaceId, {
        keyword: filtered.keyword ? keyword : undefined,
        tags: filtered.tags ? { list: tagList, count: tagCount } : undefined,
      });
      return matching
        .selectAll()
        .select(aroundDataset(features))
        .select(matching.select((eb) => eb.fn.countAll<number>().as("total")).as("matching_total"))
        .orderBy("created_at", "desc")
        .orderBy("id")
        .limit(limit)
        .offset(offset);
    },
  );
/** By `2 × keyword + tags`. */
const DATASET_PAGES = [
  datasetPage({ keyword: false, tags: false }),
  datasetPage({ keyword: false, tags: true }),
  datasetPage({ keyword: true, tags: false }),
  datasetPage({ keyword: true, tags: true }),
];

export class KyselyDatasetRepository implements DatasetRepository {
  readonly #overviewInWorkspace;
  readonly #pages;

  constructor(
    private readonly db: Kysely<DatabaseSchema>,
    private readonly features: SqlFeatures,
  ) {
    this.#overviewInWorkspace = overviewInWorkspace(features);
    this.#pages = DATASET_PAGES.map((page) => page(features));
  }

  async save(dataset: Dataset): Promise<void> {
    const rule = dataset.processRule;
    const row = {
      id: dataset.id,
      workspace_id: dataset.workspaceId,
      name: dataset.name,
      enable_api: toFlag(dataset.enableApi),
      built_in_field_enabled: toFlag(dataset.builtInFieldEnabled),
      process_rule_id: rule?.id ?? null,
      process_rule_mode: rule?.mode ?? null,
      process_rule_rules: rule ? JSON.stringify(rule.rules) : null,
      description: dataset.description,
      created_by: dataset.createdBy,
      updated_by: dataset.updatedBy,
      created_at: dataset.createdAt,
      updated_at: dataset.updatedAt,
    };
    await this.db
      .insertInto("datasets")
      .values(row)
      .onConflict((conflict) => conflict.column("id").doUpdateSet(updateAllBut(row, "id")))
      .execute();
  }

  async findInWorkspace(workspaceId: string, datasetId: string): Promise<Dataset | undefined> {
    const [row] = await datasetInWorkspace(this.db, workspaceId, datasetId);
    return row && datasetFromRow(row);
  }

  async listInWorkspace(workspaceId: string): Promise<Dataset[]> {
    const rows = await this.db
      .selectFrom("datasets")
      .selectAll()
      .where("workspace_id", "=", workspaceId)
      .orderBy("created_at")
      .orderBy("id")
      .execute();
    return rows.map(datasetFromRow);
  }

  async findOverview(workspaceId: string, datasetId: string): Promise<DatasetOverview | undefined> {
    const [row] = await this.#overviewInWorkspace(this.db, workspaceId, datasetId);
    return row && overviewFromRow(row as OverviewRow);
  }

  async listPage(
    workspaceId: string,
    filter: DatasetFilter,
    offset: number,
    limit: number,
  ): Promise<{ items: DatasetOverview[]; total: number }> {
    const tagIds = [...new Set(filter.tagIds ?? [])];
    const matching: MatchingDatasets = {
      keyword: filter.keyword,
      tags:
        tagIds.length > 0 ? { list: this.features.listParameter(tagIds), count: tagIds.length } : undefined,
    };
    const page =
      this.#pages[Number(matching.keyword !== undefined) * 2 + Number(matching.tags !== undefined)]!;
    const rows = await page(
      this.db,
      workspaceId,
      matching.keyword ?? "",
      matching.tags?.list ?? null,
      matching.tags?.count ?? 0,
      limit,
      offset,
    );
    // A page past the end has no row to carry the total: only then is it counted apart.
    const total =
      rows[0]?.matching_total ??
      (offset === 0
        ? 0
        : (
            await datasetsMatching(this.db, this.features, workspaceId, matching)
              .select((eb) => eb.fn.countAll<number>().as("total"))
              .executeTakeFirstOrThrow()
          ).total);
    return { items: rows.map((row) => overviewFromRow(row as unknown as OverviewRow)), total: Number(total) };
  }

  async setBuiltInFieldEnabled(
    datasetId: string,
    enabled: boolean,
    updatedAt: number,
    servedTo?: string,
  ): Promise<"changed" | "unchanged" | "refused"> {
    const toggles = builtInTogglesFor(servedTo);
    const [now, was] = [toFlag(enabled), toFlag(!enabled)];
    if (this.features.modifyingCtes) {
      const [row] = await toggles.changeAndFindDataset(this.db, datasetId, now, was, updatedAt, servedTo);
      return !row ? "refused" : row.changed === null ? "unchanged" : "changed";
    }
    // SQLite cannot write inside a WITH; in process, the read after costs no round trip.
    if ((await toggles.change(this.db, datasetId, now, was, updatedAt, servedTo)).length > 0)
      return "changed";
    return (await toggles.dataset(this.db, datasetId, servedTo)).length > 0 ? "unchanged" : "refused";
  }

  async lockForUpdate(datasetId: string): Promise<void> {
    if (!this.features.locksRows) return;
    await sql`select id from datasets where id = ${datasetId} for update`.execute(this.db);
  }
}
