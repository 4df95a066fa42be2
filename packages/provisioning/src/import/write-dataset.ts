import type { MetadataField } from "@service-api/domain";
import type { SaveRefusal } from "@service-api/ports";
import type { DatasetInput } from "../format/import-file-schema.js";
import { type RuleHolders, ruleHeldElsewhere } from "./process-rule-holders.js";
import type { FileHolders } from "./upload-file-holders.js";
import { heldElsewhere, type WriteContext } from "./write-context.js";
import { type FieldsByName, writeDocument } from "./write-document.js";

export interface DatasetPlace {
  workspaceId: string;
  ownerId: string | undefined;
  defaultCreator: string | undefined;
  /** The workspace's tags saved by this import: the others were refused. */
  savedTags: Set<string>;
  ruleHolders: RuleHolders;
  fileHolders: FileHolders;
}

export async function writeDataset(
  dataset: DatasetInput,
  place: DatasetPlace,
  at: string,
  context: WriteContext,
): Promise<void> {
  const { repositories, clock, summary, refuse } = context;
  const { workspaceId, ownerId } = place;
  const datasetId = dataset.id!;
  const existing = await repositories.datasets.findInWorkspace(workspaceId, datasetId);
  const rule = dataset.process_rule;
  const createdAt = dataset.created_at ?? existing?.createdAt ?? clock.nowSeconds();
  const refused = await repositories.datasets.save({
    id: datasetId,
    workspaceId,
    name: dataset.name,
    enableApi: dataset.enable_api,
    builtInFieldEnabled: dataset.built_in_field_enabled,
    processRule: rule ? { id: rule.id!, mode: rule.mode, rules: rule.rules } : undefined,
    description: dataset.description,
    indexingTechnique: dataset.indexing_technique,
    permission: dataset.permission,
    retrievalModel: dataset.retrieval_model,
    createdBy:
      dataset.created_by !== undefined ? dataset.created_by : (existing?.createdBy ?? ownerId ?? null),
    updatedBy: dataset.updated_by !== undefined ? dataset.updated_by : (existing?.updatedBy ?? null),
    createdAt,
    updatedAt: dataset.updated_at ?? existing?.updatedAt ?? createdAt,
  });
  if (refused === "owned_elsewhere") {
    refuse(at, heldElsewhere(datasetId, "another workspace's dataset"));
    return;
  }
  if (refused) {
    refuse(`${at}.name`, `another dataset of this workspace is named ${JSON.stringify(dataset.name)}`);
    return;
  }
  summary.datasets += 1;
  const ruleRefusal = rule && ruleHeldElsewhere(place.ruleHolders, rule.id!, datasetId);
  if (ruleRefusal) refuse(`${at}.process_rule`, ruleRefusal);
  const fields = await writeFields(dataset, at, context);
  // A new document the file gives no position follows the dataset's last, as in Dify, and every
  // position the file gives.
  let lastPosition = dataset.documents.reduce(
    (last, document) => Math.max(last, document.position ?? 0),
    await repositories.documents.lastPosition(datasetId),
  );
  const nextPosition = () => ++lastPosition;
  for (const [index, document] of dataset.documents.entries()) {
    const documentPlace = { ...place, datasetId, nextPosition, fields };
    await writeDocument(document, documentPlace, `${at}.documents[${index}]`, context);
  }
  const bindings = dataset.tag_ids
    .filter((tagId) => place.savedTags.has(tagId))
    .map((tagId) => ({
      id: context.ids.derive("tag-binding", tagId, datasetId),
      workspaceId,
      tagId,
      targetId: datasetId,
      createdAt: clock.nowSeconds(),
    }));
  await repositories.tags.bind(bindings);
}

/** Saves the dataset's fields; those saved, by name (the others were refused). */
async function writeFields(dataset: DatasetInput, at: string, context: WriteContext): Promise<FieldsByName> {
  const { repositories, clock } = context;
  const datasetId = dataset.id!;
  const storedFields = new Map(
    (await repositories.metadata.listFields(datasetId)).map((field) => [field.id, field]),
  );
  const fields: FieldsByName = new Map();
  for (const [index, field] of dataset.metadata_fields.entries()) {
    const stored = storedFields.get(field.id!);
    const refused = await repositories.metadata.saveField({
      id: field.id!,
      datasetId,
      name: field.name,
      type: field.type,
      createdAt: field.created_at ?? stored?.createdAt ?? clock.nowSeconds(),
    });
    if (refused) refuseField(refused, field, stored, `${at}.metadata_fields[${index}]`, context);
    else fields.set(field.name, { id: field.id!, type: field.type });
  }
  return fields;
}

function refuseField(
  refused: SaveRefusal,
  field: DatasetInput["metadata_fields"][number],
  stored: MetadataField | undefined,
  at: string,
  { refuse }: WriteContext,
): void {
  const name = JSON.stringify(field.name);
  if (refused === "owned_elsewhere") refuse(at, heldElsewhere(field.id!, "another dataset's metadata field"));
  else if (refused === "type_differs") {
    const storedType = stored ? `a ${stored.type} field` : "another type";
    refuse(`${at}.type`, `field ${name} is stored as ${storedType}: an import cannot change a field's type`);
  } else refuse(`${at}.name`, `another field of this dataset is named ${name}`);
}
