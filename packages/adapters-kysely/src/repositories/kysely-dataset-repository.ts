import type { Dataset } from "@service-api/domain";
import type { DatasetChanges, DatasetFilter, DatasetOverview, DatasetRepository } from "@service-api/ports";
import type { Kysely, QueryCreator } from "kysely";
import { compiledRead, compiledReadWith } from "../compiled-read.js";
import type { DatabaseSchema, Flag } from "../schema.js";
import type { SqlFeatures } from "../sql-features.js";
import { aroundDataset, type OverviewRow, overviewFromRow } from "./dataset-overview.js";
import { datasetPages } from "./dataset-page-read.js";
import {
  type DatasetScope,
  datasetFromRow,
  datasetServing,
  lockedWhereRowsLock,
  withAndWithoutServing,
} from "./dataset-rows.js";
import { moveDatasetToTrash, purgeTrashedDataset } from "./dataset-trash.js";
import { saveOwnedRow } from "./owned-rows.js";
import { toFlag } from "./rows.js";

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

export class KyselyDatasetRepository implements DatasetRepository {
  readonly #overviewInWorkspace;
  readonly #page;

  constructor(
    private readonly db: Kysely<DatabaseSchema>,
    private readonly features: SqlFeatures,
  ) {
    this.#overviewInWorkspace = overviewInWorkspace(features);
    this.#page = datasetPages(features);
  }

  async save(dataset: Dataset): Promise<"owned_elsewhere" | "name_taken" | undefined> {
    const row = datasetRow(dataset);
    // Imports: a name another dataset of the workspace holds is refused before the write (a create
    // racing the import still meets the unique index).
    const [taken] = await this.db
      .selectFrom("datasets")
      .select("id")
      .where("workspace_id", "=", row.workspace_id)
      .where("name", "=", row.name)
      .where("id", "<>", row.id)
      .execute();
    return taken ? "name_taken" : saveOwnedRow(this.db, "datasets", row, "workspace_id");
  }

  async create(dataset: Dataset): Promise<boolean> {
    // The unique (workspace, name) index settles races: a taken name inserts nothing.
    const inserted = await this.db
      .insertInto("datasets")
      .values(datasetRow(dataset))
      .onConflict((conflict) => conflict.doNothing())
      .returning("id")
      .execute();
    return inserted.length > 0;
  }

  async update(
    workspaceId: string,
    datasetId: string,
    changes: DatasetChanges,
  ): Promise<Dataset | "not_found" | "name_taken"> {
    const { name, description, indexingTechnique, permission, retrievalModel, updatedBy, updatedAt } =
      changes;
    // One statement; the unique (workspace, name) index refuses a taken name, no read first.
    try {
      const [row] = await this.db
        .updateTable("datasets")
        .set({
          ...(name !== undefined && { name }),
          ...(description !== undefined && { description }),
          ...(indexingTechnique !== undefined && { indexing_technique: indexingTechnique }),
          ...(permission !== undefined && { permission }),
          ...(retrievalModel !== undefined && { retrieval_model: JSON.stringify(retrievalModel) }),
          updated_by: updatedBy,
          updated_at: updatedAt,
        })
        .where("id", "=", datasetId)
        .where("workspace_id", "=", workspaceId)
        .returningAll()
        .execute();
      return row ? datasetFromRow(row) : "not_found";
    } catch (error) {
      if (this.features.isUniqueViolation(error)) return "name_taken";
      throw error;
    }
  }

  moveToTrash(workspaceId: string, datasetId: string): Promise<boolean> {
    return moveDatasetToTrash(this.db, workspaceId, datasetId);
  }

  purgeTrashed(datasetId: string, batch: number): Promise<"more" | "done"> {
    return purgeTrashedDataset(this.db, this.features, datasetId, batch);
  }

  async findProcessRuleHolders(ruleIds: readonly string[]): Promise<Map<string, string[]>> {
    const holders = new Map<string, string[]>();
    const unique = [...new Set(ruleIds)];
    if (unique.length === 0) return holders;
    const list = this.features.listParameter(unique);
    const rows = await this.db
      .selectFrom("datasets")
      .select(["process_rule_id as rule_id", "id as dataset_id"])
      .where((eb) => this.features.inList(eb.ref("process_rule_id"), list))
      .union((eb) =>
        eb
          .selectFrom("documents")
          .select(["process_rule_id as rule_id", "dataset_id"])
          .where((inner) => this.features.inList(inner.ref("process_rule_id"), list)),
      )
      .execute();
    for (const { rule_id, dataset_id } of rows) {
      if (rule_id !== null) holders.set(rule_id, [...(holders.get(rule_id) ?? []), dataset_id]);
    }
    return holders;
  }

  async findInWorkspace(workspaceId: string, datasetId: string): Promise<Dataset | undefined> {
    const [row] = await datasetInWorkspace(this.db, workspaceId, datasetId);
    return row && datasetFromRow(row);
  }

  /**
   * The dataset with its document count (a counter its row keeps), in the same statement as
   * `findInWorkspace`: for `readSeparately`, which would otherwise read the count on its own.
   */
  async findWithDocumentCount(
    workspaceId: string,
    datasetId: string,
  ): Promise<{ dataset: Dataset; documentCount: number } | undefined> {
    const [row] = await datasetInWorkspace(this.db, workspaceId, datasetId);
    return row && { dataset: datasetFromRow(row), documentCount: Number(row.document_count) };
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

  listPage(
    workspaceId: string,
    filter: DatasetFilter,
    offset: number,
    limit: number,
  ): Promise<{ items: DatasetOverview[]; total: number }> {
    return this.#page(this.db, workspaceId, filter, offset, limit);
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
    await lockedWhereRowsLock(
      this.features,
      datasetServing(this.db, datasetId, undefined),
      datasetId,
    ).execute();
  }
}

/** The columns a save or create writes (the counters are the triggers'). */
function datasetRow(dataset: Dataset) {
  const rule = dataset.processRule;
  return {
    id: dataset.id,
    workspace_id: dataset.workspaceId,
    name: dataset.name,
    enable_api: toFlag(dataset.enableApi),
    built_in_field_enabled: toFlag(dataset.builtInFieldEnabled),
    process_rule_id: rule?.id ?? null,
    process_rule_mode: rule?.mode ?? null,
    process_rule_rules: rule ? JSON.stringify(rule.rules) : null,
    description: dataset.description,
    indexing_technique: dataset.indexingTechnique,
    permission: dataset.permission,
    retrieval_model: dataset.retrievalModel === null ? null : JSON.stringify(dataset.retrievalModel),
    created_by: dataset.createdBy,
    updated_by: dataset.updatedBy,
    created_at: dataset.createdAt,
    updated_at: dataset.updatedAt,
  };
}
