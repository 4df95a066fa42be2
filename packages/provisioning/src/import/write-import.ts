import type { SaveRefusal } from "@service-api/ports";
import type { ImportFile, WorkspaceInput } from "../format/import-file-schema.js";
import { processRuleIdsOf } from "./process-rule-holders.js";
import { uploadFileHoldersOf } from "./upload-file-holders.js";
import { writeApp } from "./write-app.js";
import { heldElsewhere, type WriteContext } from "./write-context.js";
import { type DatasetPlace, writeDataset } from "./write-dataset.js";
import { writeKey } from "./write-key.js";

export type { WriteContext } from "./write-context.js";

/**
 * Writes a checked file whose records all have ids. Timestamps the file leaves out keep their stored
 * value. A record stored under another owner, a stored type changed or a name taken is refused
 * (`context.refuse`), and what depends on it is left unwritten.
 */
export async function writeImport(file: ImportFile, context: WriteContext): Promise<void> {
  const { datasets, documents } = context.repositories;
  const holders: StoredHolders = {
    ruleHolders: await datasets.findProcessRuleHolders(processRuleIdsOf(file)),
    fileHolders: await uploadFileHoldersOf(file, documents),
  };
  for (const [index, workspace] of file.workspaces.entries()) {
    await writeWorkspace(workspace, `workspaces[${index}]`, holders, context);
  }
}

/** Who holds the file's processing rules and upload files in the store, read once for all the file. */
type StoredHolders = Pick<DatasetPlace, "ruleHolders" | "fileHolders">;

async function writeWorkspace(
  workspace: WorkspaceInput,
  at: string,
  holders: StoredHolders,
  context: WriteContext,
): Promise<void> {
  const { repositories, summary } = context;
  const workspaceId = workspace.id!;
  await repositories.workspaces.save({ id: workspaceId, name: workspace.name, status: workspace.status });
  summary.workspaces += 1;
  const ownerId = await writeMembers(workspace, at, context);
  const savedTags = await writeTags(workspace, at, context);
  for (const [index, key] of workspace.dataset_api_keys.entries()) {
    await writeKey(key, "dataset", workspaceId, null, `${at}.dataset_api_keys[${index}]`, context);
  }
  const defaultCreator = workspace.members[0]?.id;
  for (const [index, dataset] of workspace.datasets.entries()) {
    const place = { workspaceId, ownerId, defaultCreator, savedTags, ...holders };
    await writeDataset(dataset, place, `${at}.datasets[${index}]`, context);
  }
  for (const [index, app] of workspace.apps.entries())
    await writeApp(app, { workspaceId, ownerId, savedTags }, `${at}.apps[${index}]`, context);
}

/**
 * Saves the members; the owner is the one marked, else the first listed. A stored owner the file
 * does not keep as owner is made a normal member first: a workspace has one owner at most.
 */
async function writeMembers(
  workspace: WorkspaceInput,
  at: string,
  context: WriteContext,
): Promise<string | undefined> {
  const { repositories } = context;
  const workspaceId = workspace.id!;
  const ownerId = (workspace.members.find((member) => member.role === "owner") ?? workspace.members[0])?.id;
  const storedOwner = await repositories.workspaces.findOwner(workspaceId);
  if (storedOwner && ownerId !== undefined && storedOwner.id !== ownerId)
    await repositories.workspaces.saveMember({ ...storedOwner, role: "normal" });
  for (const [index, member] of workspace.members.entries()) {
    const role = member.id === ownerId ? "owner" : "normal";
    const refused = await repositories.workspaces.saveMember({
      id: member.id!,
      workspaceId,
      name: member.name,
      role,
    });
    if (refused)
      context.refuse(`${at}.members[${index}]`, heldElsewhere(member.id!, "another workspace's member"));
  }
  return ownerId ?? storedOwner?.id;
}

/** Saves the tags; the ids of those saved (the others were refused). */
async function writeTags(workspace: WorkspaceInput, at: string, context: WriteContext): Promise<Set<string>> {
  const { repositories, clock } = context;
  const storedTags = new Map(
    (await repositories.tags.findByIds(workspace.tags.map((tag) => tag.id!))).map((tag) => [tag.id, tag]),
  );
  const savedTags = new Set<string>();
  for (const [index, tag] of workspace.tags.entries()) {
    const stored = storedTags.get(tag.id!);
    const createdAt = tag.created_at ?? stored?.createdAt ?? clock.nowSeconds();
    const refused = await repositories.tags.save({
      id: tag.id!,
      workspaceId: workspace.id!,
      type: tag.type,
      name: tag.name,
      createdAt,
    });
    if (refused) refuseTag(refused, tag, stored?.type, `${at}.tags[${index}]`, context);
    else savedTags.add(tag.id!);
  }
  return savedTags;
}

function refuseTag(
  refused: SaveRefusal,
  tag: WorkspaceInput["tags"][number],
  storedType: string | undefined,
  at: string,
  { refuse }: WriteContext,
): void {
  if (refused === "owned_elsewhere") refuse(at, heldElsewhere(tag.id!, "another workspace's tag"));
  else if (refused === "type_differs") {
    const stored = storedType ? `a ${storedType} tag` : "another type";
    refuse(`${at}.type`, `tag ${tag.id} is stored as ${stored}: an import cannot change a tag's type`);
  } else
    refuse(`${at}.name`, `another ${tag.type} tag of this workspace is named ${JSON.stringify(tag.name)}`);
}
