import { aMember, aWorkspace } from "@service-api/ports/testing";
import { expect } from "vitest";
import { call } from "./http.js";
import { eventually } from "./load.js";
import { issueKey } from "./seed.js";
import type { TestServer } from "./test-server.js";

// A document chunked through the API, as the chunks tests start from.

export const PARAGRAPHS = [
  "Alpha one.",
  "alpha_two 50%",
  "Beta three.",
  "Gamma four.",
  "ALPHA five.",
  "Delta six.",
];
export const CUSTOM = {
  mode: "custom",
  rules: { pre_processing_rules: [], segmentation: { separator: "\n\n", max_tokens: 50, chunk_overlap: 0 } },
};
export const HIERARCHICAL = {
  mode: "hierarchical",
  rules: {
    pre_processing_rules: [],
    segmentation: { separator: "\n\n", max_tokens: 500 },
    parent_mode: "paragraph",
    subchunk_segmentation: { separator: ". ", max_tokens: 50 },
  },
};

/** A new workspace's knowledge base with one completed document (by default, of six segments). */
export async function aChunkedDocument(
  server: TestServer,
  rule: unknown = CUSTOM,
  docForm = "text_model",
  text = PARAGRAPHS.join("\n\n"),
) {
  const { repositories } = server.store;
  const workspace = aWorkspace();
  await repositories.workspaces.save(workspace);
  await repositories.workspaces.saveMember(aMember(workspace.id, { role: "owner" }));
  const key = await issueKey(repositories, workspace.id);
  const send = (method: string, path: string, body?: unknown) =>
    call(server.url, method, `/v1${path}`, { token: key, body });
  const dataset = await send("POST", "/datasets", { name: "Chunks", indexing_technique: "economy" });
  const datasetId = dataset.body.id as string;
  const created = await send("POST", `/datasets/${datasetId}/document/create-by-text`, {
    name: "chunks.txt",
    text,
    process_rule: rule,
    doc_form: docForm,
  });
  expect(created.status).toBe(200);
  const documentId = created.body.document.id as string;
  await eventually(async () => {
    const detail = await send("GET", `/datasets/${datasetId}/documents/${documentId}`);
    return detail.body.indexing_status === "completed";
  }, 20_000);
  const base = `/datasets/${datasetId}/documents/${documentId}/segments`;
  return { key, send, workspaceId: workspace.id, datasetId, documentId, base };
}
