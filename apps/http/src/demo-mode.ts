import { DEMO, type DemoKeys } from "@service-api/provisioning";
import type { DependencyContainer } from "tsyringe";
import { LOAD_DEMO_WORKSPACE, STORE } from "./tokens.js";

/**
 * Demo mode's start: loads the demo workspace with fresh keys, unless the database holds anything
 * but the demo (then it is someone's data, and nothing is seeded: the answer is undefined). Either
 * way the demo keys printed before stop working, as their banner said.
 */
export async function loadDemoKeys(container: DependencyContainer): Promise<DemoKeys | undefined> {
  const workspaces = await container.resolve(STORE).repositories.workspaces.list();
  const loadDemo = container.resolve(LOAD_DEMO_WORKSPACE);
  if (!workspaces.some((workspace) => workspace.id !== DEMO.workspaceId)) return loadDemo.execute();
  await loadDemo.revokeKeys();
  return undefined;
}

export const DEMO_SKIPPED = "demo mode: the database holds other data, so the demo workspace was not loaded";

/** The first run's welcome: where the server is, the demo keys, and one working curl per example. */
export function demoBanner(baseUrl: string, keys: DemoKeys): string {
  const api = `${baseUrl}/v1`;
  const knowledge = `-H 'Authorization: Bearer ${keys.knowledgeKey}'`;
  const app = `-H 'Authorization: Bearer ${keys.appKey}'`;
  const json = "-H 'Content-Type: application/json'";
  const curl = "curl -sS --fail-with-body";
  const dataset = `${api}/datasets/${DEMO.datasetId}`;
  const tagBinding = JSON.stringify({ tag_ids: DEMO.tagIds, target_id: DEMO.datasetId });
  const variable = JSON.stringify({ value: "French", user: DEMO.user });
  const text = JSON.stringify({
    name: "release-notes.txt",
    text: "Widget firmware 2.1 pairs faster.\n\nThe status light now dims at night.",
  });
  const question = JSON.stringify({ query: "How do I reset my widget?" });
  const values = JSON.stringify({
    operation_data: [
      {
        document_id: DEMO.documentId,
        metadata_list: [{ id: DEMO.categoryFieldId, value: "onboarding" }],
        partial_update: true,
      },
    ],
  });
  return `
service-api is running at ${baseUrl} in demo mode: the demo workspace "Acme (demo)" is loaded.

  Demo app key (chat app "Support assistant"):  ${keys.appKey}
  Demo knowledge key (workspace's datasets):    ${keys.knowledgeKey}
  API reference (every operation):              ${baseUrl}/docs

These keys are new on every start (the previous ones stop working). For real data, start with
NODE_ENV=production or DEMO=off, and use "pnpm service-api import" and "pnpm service-api keys".

Get Document:
  ${curl} ${knowledge} '${dataset}/documents/${DEMO.documentId}?metadata=all'
List Metadata Fields:
  ${curl} ${knowledge} '${dataset}/metadata'
Create Tag Binding (answers 204, no body):
  ${curl} -X POST ${knowledge} ${json} -d '${tagBinding}' -w 'HTTP %{http_code}\\n' '${api}/datasets/tags/binding'
Update Conversation Variable:
  ${curl} -X PUT ${app} ${json} -d '${variable}' '${api}/conversations/${DEMO.conversationId}/variables/${DEMO.variableId}'
Get App WebApp Settings:
  ${curl} ${app} '${api}/site'

A few of the others (all of them at ${baseUrl}/docs):
List Documents, by keyword:
  ${curl} ${knowledge} '${dataset}/documents?keyword=warranty'
Set a Document's Metadata:
  ${curl} -X POST ${knowledge} ${json} -d '${values}' '${dataset}/documents/metadata'
List Knowledge Tags:
  ${curl} ${knowledge} '${api}/datasets/tags'
List Conversation Variables:
  ${curl} ${app} '${api}/conversations/${DEMO.conversationId}/variables?user=${DEMO.user}'
Get App Info:
  ${curl} ${app} '${api}/info'
Create a Document by Text (answered at once; indexed in the background):
  ${curl} -X POST ${knowledge} ${json} -d '${text}' '${dataset}/document/create-by-text'
Get a Batch's Indexing Status (the demo's faq.txt; a create answers its own batch):
  ${curl} ${knowledge} '${dataset}/documents/${DEMO.textBatch}/indexing-status'
Retrieve Chunks (ranked by BM25; no model needed):
  ${curl} -X POST ${knowledge} ${json} -d '${question}' '${dataset}/retrieve'
`;
}
