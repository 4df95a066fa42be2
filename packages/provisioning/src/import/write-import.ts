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
  const ownerId = await writeMembers(workspace, context);
  const storedTags = new Map(
    (await repositories.tags.findByIds(workspace.tags.map((tag) => tag.id!))).map((tag) => [tag.id, tag]),
  );
  for (const tag of workspace.tags) {
    const createdAt = tag.created_at ?? storedTags.get(tag.id!)?.createdAt ?? context.clock.nowSeconds();
    await repositories.tags.save({ id: tag.id!, workspaceId, type: tag.type, name: tag.name, createdAt });
  }
  for (const [index, key] of workspace.dataset_api_keys.entries()) {
    await writeKey(key, "dataset", workspaceId, null, `${at}.dataset_api_keys[${index}]`, context);
  }
  const defaultCreator = workspace.members[0]?.id;
  for (const dataset of workspace.datasets)
    await writeDataset(dataset, { workspaceId, ownerId, defaultCreator }, context);
  for (const [index, app] of workspace.apps.entries())
    await writeApp(app, { workspaceId, ownerId }, `${at}.apps[${index}]`, context);
}

/**
 * Saves the members; the owner is the one marked, else the first listed. A stored owner the file
 * does not keep as owner is made a normal member first: a workspace has one owner at most.
 */
async function writeMembers(workspace: WorkspaceInput, context: WriteContext): Promise<string | undefined> {
  const { repositories } = context;
  const workspaceId = workspace.id!;
  const ownerId = (workspace.members.find((member) => member.role === "owner") ?? workspace.members[0])?.id;
  const storedOwner = await repositories.workspaces.findOwner(workspaceId);
  if (storedOwner && ownerId !== undefined && storedOwner.id !== ownerId)
    await repositories.workspaces.saveMember({ ...storedOwner, role: "normal" });
  for (const member of workspace.members) {
    const role = member.id === ownerId ? "owner" : "normal";
    await repositories.workspaces.saveMember({ id: member.id!, workspaceId, name: member.name, role });
  }
  return ownerId ?? storedOwner?.id;
}

interface DatasetPlace {
  workspaceId: string;
  ownerId: string | undefined;
  defaultCreator: string | undefined;
}

async function writeDataset(
  dataset: DatasetInput,
  { workspaceId, ownerId, defaultCreator }: DatasetPlace,
  context: WriteContext,
): Promise<void> {
  const { repositories, clock, summary } = context;
  const datasetId = dataset.id!;
  const existing = await repositories.datasets.findInWorkspace(workspaceId, datasetId);
  const rule = dataset.process_rule;
  const createdAt = dataset.created_at ?? existing?.createdAt ?? clock.nowSeconds();
  await repositories.datasets.save({
    id: datasetId,
    workspaceId,
    name: dataset.name,
    enableApi: dataset.enable_api,
    builtInFieldEnabled: dataset.built_in_field_enabled,
    processRule: rule ? { id: rule.id!, mode: rule.mode, rules: rule.rules } : undefined,
    description: dataset.description,
    createdBy:
      dataset.created_by !== undefined ? dataset.created_by : (existing?.createdBy ?? ownerId ?? null),
    updatedBy: dataset.updated_by !== undefined ? dataset.updated_by : (existing?.updatedBy ?? null),
    createdAt,
    updatedAt: dataset.updated_at ?? existing?.updatedAt ?? createdAt,
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
  const fields = new Map(
    dataset.metadata_fields.map((field) => [field.name, { id: field.id!, type: field.type }]),
  );
  for (const [position, document] of dataset.documents.entries()) {
    await writeDocument(
      document,
      { workspaceId, datasetId, position: position + 1, defaultCreator, fields },
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
