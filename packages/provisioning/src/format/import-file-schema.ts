import { z } from "zod";
import { appSchema } from "./app-schema.js";
import { apiKey, id, name, timestamp } from "./common.js";
import { datasetSchema } from "./dataset-schema.js";

/** `role`: at most one owner; when none is marked, the first member listed is the owner. */
export const memberSchema = z.strictObject({
  id: id.optional(),
  name,
  role: z.enum(["owner", "normal"]).optional(),
});

export const tagSchema = z.strictObject({
  id: id.optional(),
  name,
  type: z.enum(["knowledge", "app"]),
  created_at: timestamp.optional(),
});

export const workspaceSchema = z.strictObject({
  id: id.optional(),
  name,
  status: z.enum(["normal", "archived"]).default("normal"),
  members: z.array(memberSchema).default([]),
  dataset_api_keys: z.array(apiKey).default([]),
  tags: z.array(tagSchema).default([]),
  datasets: z.array(datasetSchema).default([]),
  apps: z.array(appSchema).default([]),
});

/** Version 1 of the import format: everything the service stores, nested the way it is owned. */
export const importFileSchema = z.strictObject({
  $schema: z.string().optional(),
  version: z.literal(1),
  workspaces: z.array(workspaceSchema),
});

export type ImportFile = z.output<typeof importFileSchema>;
export type ImportFileInput = z.input<typeof importFileSchema>;
export type WorkspaceInput = ImportFile["workspaces"][number];
export type DatasetInput = WorkspaceInput["datasets"][number];
export type DocumentInput = DatasetInput["documents"][number];
export type AppInput = WorkspaceInput["apps"][number];
