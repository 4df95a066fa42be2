import { describe, expect, it, onTestFinished } from "vitest";
import { DEMO, demoWorkspaceFile } from "../demo/demo-workspace.js";
import type { ImportFileInput } from "../format/import-file-schema.js";
import { InvalidImportError } from "../format/issues.js";
import { createProvisioningWorld, STORES } from "../test-world.test-support.js";

/** The demo workspace imported, and what the store holds then, as exported. */
async function demoImported(openStore: (typeof STORES)[number][1]) {
  const store = await openStore();
  onTestFinished(() => store.close());
  const world = createProvisioningWorld(store);
  await world.importData.execute(demoWorkspaceFile());
  return { ...world, stored: await world.exportData.execute() };
}

async function refusal(importing: Promise<unknown>): Promise<InvalidImportError> {
  const error = await importing.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!(error instanceof InvalidImportError)) throw error ?? new Error("expected a refusal, got none");
  return error;
}

/** The demo workspace with only what `over` gives it: its stored records are left as they are. */
const demoWith = (over: Partial<ImportFileInput["workspaces"][number]>): ImportFileInput => ({
  version: 1,
  workspaces: [{ id: DEMO.workspaceId, name: "Acme (demo)", ...over }],
});

/** The demo's chat app with only this conversation of the demo's, holding these variables. */
const chatWith = (variables: { id?: string; name: string }[]) => ({
  apps: [
    {
      id: DEMO.chatAppId,
      name: "Support assistant",
      mode: "advanced-chat" as const,
      conversations: [
        {
          id: DEMO.conversationId,
          user: DEMO.user,
          variables: variables.map((variable) => ({
            ...variable,
            value_type: "string" as const,
            value: "x",
          })),
        },
      ],
    },
  ],
});

const handbook = (over: Record<string, unknown>) => ({
  id: DEMO.datasetId,
  name: "Product handbook",
  ...over,
});

describe.each(STORES)("ImportData against stored types and names (%s)", (_store, openStore) => {
  it("refuses to change a stored tag's type, as the API never does, and writes nothing", async () => {
    const { importData, exportData, stored } = await demoImported(openStore);
    const file = demoWith({ tags: [{ id: DEMO.tagIds[0], name: "product", type: "app" }] });
    const failure = await refusal(importData.execute(file));
    expect(failure.issues).toEqual([
      { path: "workspaces[0].tags[0].type", message: expect.stringMatching(/stored as a knowledge tag/) },
    ]);
    expect(await exportData.execute()).toEqual(stored);
  });

  it("refuses to change a stored metadata field's type, even with its values left out, and writes nothing", async () => {
    const { importData, exportData, stored } = await demoImported(openStore);
    const author = stored.workspaces[0]!.datasets![0]!.metadata_fields![0]!;
    const file = demoWith({ datasets: [handbook({ metadata_fields: [{ ...author, type: "number" }] })] });
    const failure = await refusal(importData.execute(file));
    expect(failure.issues).toEqual([
      {
        path: "workspaces[0].datasets[0].metadata_fields[0].type",
        message: expect.stringMatching(/stored as a string field/),
      },
    ]);
    expect(await exportData.execute()).toEqual(stored);
  });

  it("refuses a new tag whose name a stored tag of its kind holds, and writes nothing", async () => {
    const { importData, exportData, stored } = await demoImported(openStore);
    const file = demoWith({
      tags: [
        { name: "fresh", type: "knowledge" },
        { name: "product", type: "knowledge" },
        { name: "product", type: "app" },
      ],
    });
    const failure = await refusal(importData.execute(file));
    expect(failure.issues).toEqual([
      {
        path: "workspaces[0].tags[1].name",
        message: 'another knowledge tag of this workspace is named "product"',
      },
    ]);
    expect(await exportData.execute()).toEqual(stored);
  });

  it("refuses a rename to a name a stored tag holds, but not one its holder gives up first", async () => {
    const { importData, exportData, stored } = await demoImported(openStore);
    const [product, support] = [DEMO.tagIds[0], DEMO.tagIds[1]] as const;
    const failure = await refusal(
      importData.execute(demoWith({ tags: [{ id: product, name: "support", type: "knowledge" }] })),
    );
    expect(failure.issues.map((issue) => issue.path)).toEqual(["workspaces[0].tags[0].name"]);
    expect(await exportData.execute()).toEqual(stored);

    await importData.execute(
      demoWith({
        tags: [
          { id: support, name: "help", type: "knowledge" },
          { id: product, name: "support", type: "knowledge" },
        ],
      }),
    );
    const tags = (await exportData.execute()).workspaces[0]!.tags!;
    expect(tags.filter((tag) => tag.type === "knowledge").map((tag) => [tag.id, tag.name])).toEqual([
      [support, "help"],
      [product, "support"],
    ]);
  });

  it("refuses a new metadata field whose name a stored field of the dataset holds, and writes nothing", async () => {
    const { importData, exportData, stored } = await demoImported(openStore);
    const file = demoWith({
      members: [{ id: DEMO.memberId, name: "Ada Lovelace", role: "owner" }],
      datasets: [
        handbook({
          metadata_fields: [{ name: "category", type: "string" }],
          documents: [{ name: "new.md", metadata: { category: "x" } }],
        }),
      ],
    });
    const failure = await refusal(importData.execute(file));
    expect(failure.issues).toEqual([
      {
        path: "workspaces[0].datasets[0].metadata_fields[0].name",
        message: 'another field of this dataset is named "category"',
      },
    ]);
    expect(await exportData.execute()).toEqual(stored);
  });

  it("refuses a new conversation variable whose name a stored variable of the conversation holds", async () => {
    const { importData, exportData, stored } = await demoImported(openStore);
    const failure = await refusal(importData.execute(demoWith(chatWith([{ name: "preferred_language" }]))));
    expect(failure.issues).toEqual([
      {
        path: "workspaces[0].apps[0].conversations[0].variables[0].name",
        message: 'another variable of this conversation is named "preferred_language"',
      },
    ]);
    expect(await exportData.execute()).toEqual(stored);
  });

  it("lets a file swap the names of the variables it lists", async () => {
    const { importData, store } = await demoImported(openStore);
    const { conversations } = store.repositories;
    const [language, tickets] = await conversations
      .listVariables(DEMO.conversationId)
      .then((variables) =>
        ["preferred_language", "open_tickets"].map(
          (name) => variables.find((variable) => variable.name === name)!,
        ),
      );
    await importData.execute(
      demoWith(
        chatWith([
          { id: language!.id, name: "open_tickets" },
          { id: tickets!.id, name: "preferred_language" },
        ]),
      ),
    );
    const names = (await conversations.listVariables(DEMO.conversationId)).map(({ id, name }) => [id, name]);
    expect(names).toContainEqual([language!.id, "open_tickets"]);
    expect(names).toContainEqual([tickets!.id, "preferred_language"]);
  });
});
