import { describe, expect, it, onTestFinished } from "vitest";
import { DEMO, demoWorkspaceFile } from "../demo/demo-workspace.js";
import type { ImportFileInput } from "../format/import-file-schema.js";
import { InvalidImportError } from "../format/issues.js";
import { createProvisioningWorld, STORES } from "../test-world.test-support.js";

type WorkspaceInput = ImportFileInput["workspaces"][number];

/** The demo workspace imported, and what the store holds then, as exported. */
async function demoImported(openStore: (typeof STORES)[number][1]) {
  const store = await openStore();
  onTestFinished(() => store.close());
  const world = createProvisioningWorld(store);
  await world.importData.execute(demoWorkspaceFile());
  const stored = await world.exportData.execute();
  return { ...world, stored, demo: stored.workspaces[0]! };
}

async function refusal(importing: Promise<unknown>): Promise<InvalidImportError> {
  const error = await importing.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!(error instanceof InvalidImportError)) throw new Error(`expected a refusal, got ${String(error)}`);
  return error;
}

/** Another workspace, with one member so that its documents have a creator. */
const other = (over: Partial<WorkspaceInput>): ImportFileInput => ({
  version: 1,
  workspaces: [{ name: "Other", members: [{ name: "Eve" }], ...over }],
});

describe.each(STORES)("ImportData against records of other owners (%s)", (_store, openStore) => {
  it("refuses a copy of a workspace under a new id that names its records, and writes nothing", async () => {
    const { importData, exportData, stored, demo } = await demoImported(openStore);
    const copy = structuredClone(demo);
    delete copy.id;
    copy.name = "Acme (copy)";
    copy.dataset_api_keys = [];
    for (const app of copy.apps ?? []) app.api_keys = [];

    const failure = await refusal(importData.execute({ version: 1, workspaces: [copy] }));
    expect(failure.issues.map((issue) => issue.path)).toEqual([
      "workspaces[0].members[0]",
      "workspaces[0].members[1]",
      "workspaces[0].tags[0]",
      "workspaces[0].tags[1]",
      "workspaces[0].tags[2]",
      "workspaces[0].datasets[0]",
      "workspaces[0].apps[0]",
      "workspaces[0].apps[1]",
    ]);
    expect(failure.issues[5]?.message).toBe(`id ${DEMO.datasetId} is held by another workspace's dataset`);
    expect(await exportData.execute()).toEqual(stored);
  });

  const dataset = (demo: WorkspaceInput) => demo.datasets![0]!;
  const document = (demo: WorkspaceInput) => dataset(demo).documents![0]!;
  const cases: [string, (demo: WorkspaceInput) => ImportFileInput, string, RegExp][] = [
    [
      "a member",
      () => other({ members: [{ id: DEMO.memberId, name: "Eve" }] }),
      "members[0]",
      /another workspace's member/,
    ],
    [
      "a tag",
      () => other({ tags: [{ id: DEMO.tagIds[0], name: "x", type: "knowledge" }] }),
      "tags[0]",
      /another workspace's tag/,
    ],
    ["a dataset", () => other({ datasets: [{ id: DEMO.datasetId, name: "D" }] }), "datasets[0]", /dataset/],
    [
      "a document",
      () => other({ datasets: [{ name: "D", documents: [{ id: DEMO.documentId, name: "x" }] }] }),
      "datasets[0].documents[0]",
      /another dataset's document/,
    ],
    [
      "a metadata field",
      () =>
        other({
          datasets: [
            { name: "D", metadata_fields: [{ id: DEMO.categoryFieldId, name: "c", type: "string" }] },
          ],
        }),
      "datasets[0].metadata_fields[0]",
      /another dataset's metadata field/,
    ],
    [
      "a dataset's processing rule",
      (demo) => other({ datasets: [{ name: "D", process_rule: dataset(demo).process_rule }] }),
      "datasets[0].process_rule",
      /another dataset's processing rule/,
    ],
    [
      "a document's processing rule",
      (demo) =>
        other({
          datasets: [{ name: "D", documents: [{ name: "x", process_rule: document(demo).process_rule }] }],
        }),
      "datasets[0].documents[0].process_rule",
      /another dataset's processing rule/,
    ],
    [
      "an uploaded file",
      (demo) =>
        other({
          datasets: [
            {
              name: "D",
              documents: [
                { name: "x", upload_file: { ...document(demo).upload_file!, created_by: undefined } },
              ],
            },
          ],
        }),
      "datasets[0].documents[0].upload_file",
      /another workspace's upload file/,
    ],
    [
      "a segment",
      (demo) =>
        other({
          datasets: [{ name: "D", documents: [{ name: "x", segments: [document(demo).segments![1]!] }] }],
        }),
      "datasets[0].documents[0].segments[0]",
      /another document's segment/,
    ],
    ["an app", () => other({ apps: [{ id: DEMO.chatAppId, name: "A", mode: "chat" }] }), "apps[0]", /app/],
    [
      "a conversation",
      () =>
        other({
          apps: [{ name: "A", mode: "chat", conversations: [{ id: DEMO.conversationId, user: "u" }] }],
        }),
      "apps[0].conversations[0]",
      /another app's conversation/,
    ],
  ];

  it.each(cases)(
    "refuses %s stored under another owner, naming where, and writes nothing",
    async (_kind, file, at, message) => {
      const { importData, exportData, stored, demo } = await demoImported(openStore);
      const failure = await refusal(importData.execute(file(demo)));
      expect(failure.issues).toEqual([
        { path: `workspaces[0].${at}`, message: expect.stringMatching(message) },
      ]);
      expect(await exportData.execute()).toEqual(stored);
    },
  );

  it("refuses a document moved to another dataset of the same workspace", async () => {
    const { importData, exportData, stored } = await demoImported(openStore);
    const file = demoWorkspaceFile();
    const [moved] = file.workspaces[0]!.datasets![0]!.documents!.splice(0, 1);
    file.workspaces[0]!.datasets!.push({
      name: "Another handbook",
      documents: [{ ...moved!, metadata: {} }],
    });
    const failure = await refusal(importData.execute(file));
    expect(failure.issues).toEqual([
      {
        path: "workspaces[0].datasets[1].documents[0]",
        message: `id ${DEMO.documentId} is held by another dataset's document`,
      },
    ]);
    expect(await exportData.execute()).toEqual(stored);
  });

  it("refuses an upload file a stored document of another dataset has, as a repeat in one file is refused", async () => {
    const { importData, exportData, stored, demo } = await demoImported(openStore);
    const taken = document(demo).upload_file!;
    const upload_file = { id: taken.id, name: "b.md", size: 1, extension: "md", mime_type: "text/markdown" };
    const { id, name, members } = demo;
    const file: ImportFileInput = {
      version: 1,
      workspaces: [
        { id, name, members, datasets: [{ name: "Another", documents: [{ name: "b.md", upload_file }] }] },
      ],
    };
    const failure = await refusal(importData.execute(file));
    expect(failure.issues).toEqual([
      {
        path: "workspaces[0].datasets[0].documents[0].upload_file",
        message: `id ${taken.id} is held by another document's upload file`,
      },
    ]);
    expect(await exportData.execute()).toEqual(stored);
  });

  it("lets the file's documents swap their upload files", async () => {
    const { importData, exportData, stored } = await demoImported(openStore);
    const swapped = structuredClone(stored);
    const [first, second] = dataset(swapped.workspaces[0]!).documents!;
    [first!.upload_file, second!.upload_file] = [second!.upload_file, first!.upload_file];
    await importData.execute(swapped);
    expect(await exportData.execute()).toEqual(swapped);
  });

  it("lets a conversation variable's id repeat in another conversation, as the API does, moving nothing", async () => {
    const { importData, store } = await demoImported(openStore);
    const variable = {
      id: DEMO.variableId,
      name: "preferred_language",
      value_type: "string" as const,
      value: "French",
    };
    await importData.execute(
      other({ apps: [{ name: "A", mode: "chat", conversations: [{ user: "u", variables: [variable] }] }] }),
    );
    const { conversations } = store.repositories;
    expect((await conversations.findVariable(DEMO.conversationId, DEMO.variableId))?.value).toBe("English");
  });

  it("still imports the same file again, and a changed one, for the same owners", async () => {
    const { importData, exportData, stored } = await demoImported(openStore);
    await importData.execute(stored);
    expect(await exportData.execute()).toEqual(stored);
    const changed = structuredClone(stored);
    dataset(changed.workspaces[0]!).name = "Renamed handbook";
    await importData.execute(changed);
    expect(await exportData.execute()).toEqual(changed);
  });
});
