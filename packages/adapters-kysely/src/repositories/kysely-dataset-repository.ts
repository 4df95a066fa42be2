import type { Dataset } from "@service-api/domain";
import type { DatasetRepository } from "@service-api/ports";
import type { Kysely, Selectable } from "kysely";
import { compiledRead } from "../compiled-read.js";
import type { DatabaseSchema, DatasetTable } from "../schema.js";
import { fromFlag, processRuleFromColumns, toFlag, updateAllBut } from "./rows.js";

function datasetFromRow(row: Selectable<DatasetTable>): Dataset {
  const { process_rule_id: ruleId, process_rule_mode: mode, process_rule_rules: rules } = row;
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    name: row.name,
    enableApi: fromFlag(row.enable_api),
    builtInFieldEnabled: fromFlag(row.built_in_field_enabled),
    processRule:
      ruleId !== null && mode !== null && rules !== null
        ? processRuleFromColumns(ruleId, mode, rules)
        : undefined,
    createdAt: row.created_at,
  };
}

const datasetInWorkspace = compiledRead((db, workspaceId: string, datasetId: string) =>
  db.selectFrom("datasets").selectAll().where("id", "=", datasetId).where("workspace_id", "=", workspaceId),
);

export class KyselyDatasetRepository implements DatasetRepository {
  constructor(private readonly db: Kysely<DatabaseSchema>) {}

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
      created_at: dataset.createdAt,
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
}
