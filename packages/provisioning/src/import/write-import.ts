import type { DatasetInput, ImportFile, WorkspaceInput } from "../format/import-file-schema.js";
import { writeApp } from "./write-app.js";
import type { WriteContext } from "./write-context.js";
import { writeDocument } from "./write-document.js";
import { writeKey } from "./write-key.js";

export type { WriteContext } from "./write-context.js";

/** Writes a checked file whose records all have ids. Timestamps the file leaves out keep their stored value. */
export async function writeImport(file: ImportFile, context: WriteContext): Promise<void> {
  for (const [index, workspace] of file.workspaces.entries()) {
    await writeWorkspace(workspace, `workspaces[${index}]`, context);
  }
}

async function writeWorkspace(workspace: WorkspaceInput, at: string, context: WriteContext): Promise<void> {
  const { repositories, summary } = context;
  const workspaceId = workspace.id!;
  await repositories.workspaces.save({ id: workspaceId, name: workspace.name, status: workspace.status });
  summary.workspaces += 1;
  for (const member of workspace.members) {
    await repositories.workspaces.saveMember({ id: member.id!, workspaceId, name: member.name });
  }
  for (const tag of workspace.tags) {
    await repositories.tags.save({ id: tag.id!, workspaceId, type: tag.type, name: tag.name });
  }
  for (const [index, key] of workspace.dataset_api_keys.entries()) {
    await writeKey(key, "dataset", workspaceId, null, `${at}.dataset_api_keys[${index}]`, context);
  }
  const defaultCreator = workspace.members[0]?.id;
  for (const dataset of workspace.datasets) await writeDataset(dataset, workspaceId, defaultCreator, context);
  for (const [index, app] of workspace.apps.entries())
    await writeApp(app, workspaceId, `${at}.apps[${index}]`, context);
}

async function writeDataset(
  dataset: DatasetInput,
  workspaceId: string,
  defaultCreator: string | undefined,
  context: WriteContext,
): Promise<void> {
  const { repositories, clock, summary } = context;
  const datasetId = dataset.id!;
  const existing = await repositories.datasets.findInWorkspace(workspaceId, datasetId);
  const rule = dataset.process_rule;
  await repositories.datasets.save({
    id: datasetId,
    workspaceId,
    name: dataset.name,
    enableApi: dataset.enable_api,
    builtInFieldEnabled: dataset.built_in_field_enabled,
    processRule: rule ? { id: rule.id!, mode: rule.mode, rules: rule.rules } : undefined,
    createdAt: dataset.created_at ?? existing?.createdAt ?? clock.nowSeconds(),
  });
  summary.datasets += 1;
  const storedFields = new Map(
    (await repositories.metadata.listFields(datasetId)).map((field) => [field.id, field]),
  );
  for (const field of dataset.metadata_fields) {
    const createdAt = field.created_at ?? storedFields.get(field.id!)?.createdAt ?? clock.nowSeconds();
    await repositories.metadata.saveField({
      id: field.id!,
      datasetId,
      name: field.name,
      type: field.type,
      createdAt,
    });
  }
  const fieldIds = new Map(dataset.metadata_fields.map((field) => [field.name, field.id!]));
  for (const [position, document] of dataset.documents.entries()) {
    await writeDocument(
      document,
      { workspaceId, datasetId, position: position + 1, defaultCreator, fieldIds },
      context,
    );
  }
  const bindings = dataset.tag_ids.map((tagId) => ({
    id: context.ids.derive("tag-binding", tagId, datasetId),
    workspaceId,
    tagId,
    targetId: datasetId,
    createdAt: clock.nowSeconds(),
  }));
  await repositories.tags.bind(bindings);
}
