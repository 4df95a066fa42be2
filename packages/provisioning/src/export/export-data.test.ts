import { describe, expect, it, onTestFinished } from "vitest";
import { DEMO, demoWorkspaceFile } from "../demo/demo-workspace.js";
import type { ImportFileInput } from "../format/import-file-schema.js";

/** A provisioning world on a store of the kind under test, closed when the test ends. */
async function worldOn(openStore: (typeof STORES)[number][1]) {
  const store = await openStore();
  onTestFinished(() => store.close());
  return createProvisioningWorld(store);
}

import { createProvisioningWorld, STORES } from "../test-world.test-support.js";

const RT = {
  workspaceId: "6a1c9e2f-3b4d-4e5f-8a7b-1c2d3e4f5a01",
  datasetId: "6a1c9e2f-3b4d-4e5f-8a7b-1c2d3e4f5a02",
  documentId: "6a1c9e2f-3b4d-4e5f-8a7b-1c2d3e4f5a03",
  fieldId: "6a1c9e2f-3b4d-4e5f-8a7b-1c2d3e4f5a04",
  appId: "6a1c9e2f-3b4d-4e5f-8a7b-1c2d3e4f5a05",
  conversationId: "6a1c9e2f-3b4d-4e5f-8a7b-1c2d3e4f5a06",
  stringId: "6a1c9e2f-3b4d-4e5f-8a7b-1c2d3e4f5a07",
  secretId: "6a1c9e2f-3b4d-4e5f-8a7b-1c2d3e4f5a08",
  arrayId: "6a1c9e2f-3b4d-4e5f-8a7b-1c2d3e4f5a09",
  objectId: "6a1c9e2f-3b4d-4e5f-8a7b-1c2d3e4f5a0a",
};

/** Values the API takes for a variable (Dify too): NULs and lone surrogates, in text and in keys. */
const UNUSUAL_VALUES: Record<string, unknown> = {
  [RT.stringId]: "a\u0000b",
  [RT.secretId]: "\ud800",
  [RT.arrayId]: ["\u0000", "x\udfff", "\ud83d\ude00"],
  [RT.objectId]: { "\u0000": "\udc00", nested: ["\u0000\ud800"] },
};

/** A workspace with a dataset, a document, and a chat app with one conversation's variables. */
const roundTripBase = (): ImportFileInput => ({
  version: 1,
  workspaces: [
    {
      id: RT.workspaceId,
      name: "Round trip",
      members: [{ name: "Owner" }],
      datasets: [{ id: RT.datasetId, name: "D", documents: [{ id: RT.documentId, name: "doc.md" }] }],
      apps: [
        {
          id: RT.appId,
          name: "Chat",
          mode: "chat",
          conversations: [
            {
              id: RT.conversationId,
              user: "u",
              variables: [
                { id: RT.stringId, name: "s", value_type: "string", value: "" },
                { id: RT.secretId, name: "k", value_type: "secret", value: "" },
                { id: RT.arrayId, name: "l", value_type: "array[string]", value: [] },
                { id: RT.objectId, name: "o", value_type: "object", value: {} },
              ],
            },
          ],
        },
      ],
    },
  ],
});

describe.each(STORES)("ExportData (%s)", (_store, openStore) => {
  it("exports what import reads back: export, import into an empty store, export gives the same", async () => {
    const first = await worldOn(openStore);
    await first.importData.execute(demoWorkspaceFile());
    await first.issueKey.execute({ workspaceId: demoWorkspaceFile().workspaces[0]!.id! });
    const exported = await first.exportData.execute();

    const second = await worldOn(openStore);
    await second.importData.execute(JSON.parse(JSON.stringify(exported)));
    expect(await second.exportData.execute()).toEqual(exported);
  });

  it("exports variable values holding a NUL or a lone surrogate, as the API stores them, and imports them back", async () => {
    const first = await worldOn(openStore);
    await first.importData.execute(roundTripBase());
    const { conversations } = first.store.repositories;
    for (const [variableId, value] of Object.entries(UNUSUAL_VALUES)) {
      // As Update Conversation Variable writes a value the API took (`PUT …/variables/{id}`).
      const update = { appId: RT.appId, sessionId: "u", conversationId: RT.conversationId, variableId };
      const written = await conversations.updateVariableValueIfAllowed({
        ...update,
        value,
        acceptedTypes: ["string", "secret", "array[string]", "object"],
        updatedAt: 1_767_225_700,
      });
      expect(written?.value).toEqual(value);
    }
    const exported = await first.exportData.execute();
    const variables = exported.workspaces[0]!.apps![0]!.conversations![0]!.variables!;
    expect(Object.fromEntries(variables.map((variable) => [variable.id, variable.value]))).toEqual(
      UNUSUAL_VALUES,
    );

    const second = await worldOn(openStore);
    await second.importData.execute(JSON.parse(JSON.stringify(exported)));
    expect(await second.exportData.execute()).toEqual(exported);
  });

  it("exports names exactly as the API stores them, and imports them back unchanged", async () => {
    const first = await worldOn(openStore);
    await first.importData.execute(roundTripBase());
    const { tags, metadata } = first.store.repositories;
    // As Create Knowledge Tag and Create Metadata Field store them: as sent, not trimmed.
    for (const [index, name] of [" sp ", "a", "a "].entries()) {
      const tag = { id: `0d3f5a10-6c2e-4b7d-9a41-5e8c2f1b70${index}0`, workspaceId: RT.workspaceId, name };
      expect(await tags.create({ ...tag, type: "knowledge", createdAt: 1_767_225_700 })).toBe(true);
    }
    const field = { id: RT.fieldId, datasetId: RT.datasetId, name: "uploader ", type: "string" as const };
    expect(await metadata.createField({ ...field, createdAt: 1_767_225_700 })).toBe(true);
    await metadata.setValue(RT.documentId, RT.fieldId, "Ada");
    const exported = await first.exportData.execute();
    const workspace = exported.workspaces[0]!;
    expect(workspace.tags?.map((tag) => tag.name).sort()).toEqual([" sp ", "a", "a "]);
    expect(workspace.datasets?.[0]?.metadata_fields?.map((each) => each.name)).toEqual(["uploader "]);
    expect(workspace.datasets?.[0]?.documents?.[0]?.metadata).toEqual({ "uploader ": "Ada" });

    const second = await worldOn(openStore);
    await second.importData.execute(JSON.parse(JSON.stringify(exported)));
    expect(await second.exportData.execute()).toEqual(exported);
    // Imported again over itself, nothing changes either.
    await second.importData.execute(JSON.parse(JSON.stringify(exported)));
    expect(await second.exportData.execute()).toEqual(exported);
  });

  it("exports a document's state as the API's rules leave it, which an earlier import may have stored otherwise", async () => {
    const { importData, exportData, store } = await worldOn(openStore);
    await importData.execute(demoWorkspaceFile());
    const { documents } = store.repositories;
    const [first, , indexing] = await documents.listInDataset(DEMO.datasetId);
    // As earlier releases' imports could store them: enabled yet disabled, completed while indexing.
    await documents.save({
      ...first!,
      enabled: true,
      disabledAt: 5,
      disabledBy: DEMO.memberId,
      archivedAt: 6,
    });
    await documents.save({ ...indexing!, completedAt: 7, indexingLatency: 1.5 });
    const exported = await exportData.execute();
    const written = exported.workspaces[0]?.datasets?.[0]?.documents ?? [];
    expect(written.find((document) => document.id === first!.id)).toMatchObject({
      disabled_at: null,
      disabled_by: null,
      archived_at: null,
    });
    expect(written.find((document) => document.id === indexing!.id)).toMatchObject({
      completed_at: null,
      indexing_latency: null,
    });
    const again = await worldOn(openStore);
    await again.importData.execute(exported);
    expect(await again.exportData.execute()).toEqual(exported);
  });

  it("writes keys as hashes only", async () => {
    const world = await worldOn(openStore);
    await world.importData.execute(demoWorkspaceFile());
    const { token } = await world.issueKey.execute({ workspaceId: demoWorkspaceFile().workspaces[0]!.id! });
    const exported = JSON.stringify(await world.exportData.execute());
    expect(exported).not.toContain(token);
    expect(exported).toContain(`sha256:${world.hasher.hash(token)}`);
  });

  it("exports an empty store as no workspaces", async () => {
    expect(await (await worldOn(openStore)).exportData.execute()).toEqual({ version: 1, workspaces: [] });
  });
});
