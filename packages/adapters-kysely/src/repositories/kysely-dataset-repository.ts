import type { DataSourceType, Dataset, DocForm } from "@service-api/domain";
import type { DatasetFilter, DatasetOverview, DatasetRepository } from "@service-api/ports";
import { type ExpressionBuilder, type Kysely, sql } from "kysely";
import { compiledRead } from "../compiled-read.js";
import type { DatabaseSchema } from "../schema.js";
import type { SqlFeatures } from "../sql-features.js";
import { type DatasetRow, datasetFromRow } from "./dataset-rows.js";
import { toFlag, updateAllBut } from "./rows.js";

type OverviewRow = DatasetRow & {
  author_name: string | null;
  first_source: string | null;
  first_form: string | null;
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
  };
}

/** The creator's name and the first document's kind: index seeks, whatever the number of documents. */
const aroundDataset = (eb: ExpressionBuilder<DatabaseSchema, "datasets">) => {
  const firstDocument = eb
    .selectFrom("documents")
    .whereRef("documents.dataset_id", "=", "datasets.id")
    .orderBy("documents.position")
    .orderBy("documents.id")
    .limit(1);
  return [
    eb
      .selectFrom("members")
      .select("members.name")
      .whereRef("members.id", "=", "datasets.created_by")
      .as("author_name"),
    firstDocument.select("documents.data_source_type").as("first_source"),
    firstDocument.select("documents.doc_form").as("first_form"),
  ];
};

const datasetInWorkspace = compiledRead((db, workspaceId: string, datasetId: string) =>
  db.selectFrom("datasets").selectAll().where("id", "=", datasetId).where("workspace_id", "=", workspaceId),
);
const overviewInWorkspace = compiledRead((db, workspaceId: string, datasetId: string) =>
  db
    .selectFrom("datasets")
    .selectAll()
    .select(aroundDataset)
    .where("id", "=", datasetId)
    .where("workspace_id", "=", workspaceId),
);

export class KyselyDatasetRepository implements DatasetRepository {
  constructor(
    private readonly db: Kysely<DatabaseSchema>,
    private readonly features: SqlFeatures,
  ) {}

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
    const [row] = await overviewInWorkspace(this.db, workspaceId, datasetId);
    return row && overviewFromRow(row as OverviewRow);
  }

  async listPage(
    workspaceId: string,
    filter: DatasetFilter,
    offset: number,
    limit: number,
  ): Promise<{ items: DatasetOverview[]; total: number }> {
    let matching = this.db.selectFrom("datasets").where("workspace_id", "=", workspaceId);
    if (filter.keyword !== undefined)
      matching = matching.where(this.features.containsText("name", filter.keyword));
    const tagIds = [...new Set(filter.tagIds ?? [])];
    if (tagIds.length > 0) {
      // Bound to every tag asked; an id that is not a knowledge tag of the workspace matches nothing.
      matching = matching.where("id", "in", (eb) =>
        eb
          .selectFrom("tag_bindings")
          .innerJoin("tags", "tags.id", "tag_bindings.tag_id")
          .select("tag_bindings.target_id")
          .where("tags.workspace_id", "=", workspaceId)
          .where("tags.type", "=", "knowledge")
          .where("tag_bindings.tag_id", "in", tagIds)
          .groupBy("tag_bindings.target_id")
          .having((eb) => eb.fn.countAll(), "=", tagIds.length),
      );
    }
    const [rows, count] = await Promise.all([
      matching
        .selectAll()
        .select(aroundDataset)
        .orderBy("created_at", "desc")
        .orderBy("id")
        .limit(limit)
        .offset(offset)
        .execute(),
      matching.select((eb) => eb.fn.countAll<number>().as("total")).executeTakeFirstOrThrow(),
    ]);
    return { items: rows.map((row) => overviewFromRow(row as OverviewRow)), total: Number(count.total) };
  }

  async setBuiltInFieldEnabled(datasetId: string, enabled: boolean, updatedAt: number): Promise<boolean> {
    const result = await this.db
      .updateTable("datasets")
      .set({ built_in_field_enabled: toFlag(enabled), updated_at: updatedAt })
      .where("id", "=", datasetId)
      .where("built_in_field_enabled", "=", toFlag(!enabled))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async lockForUpdate(datasetId: string): Promise<void> {
    if (!this.features.locksRows) return;
    await sql`select id from datasets where id = ${datasetId} for update`.execute(this.db);
  }
}
