import { describe, expect, it, onTestFinished } from "vitest";
import { DEMO, demoWorkspaceFile } from "../demo/demo-workspace.js";
import type { ImportFileInput } from "../format/import-file-schema.js";
import { InvalidImportError } from "../format/issues.js";
import { createProvisioningWorld, STORES } from "../test-world.test-support.js";

type DatasetInput = NonNullable<ImportFileInput["workspaces"][number]["datasets"]>[number];
type ConversationInput = NonNullable<
  NonNullable<ImportFileInput["workspaces"][number]["apps"]>[number]["conversations"]
>[number];
type DocumentInput = NonNullable<DatasetInput["documents"]>[number];

const RULE = "0d3f5a10-6c2e-4b7d-9a41-5e8c2f1b7b01";
const VARIABLE = "0d3f5a10-6c2e-4b7d-9a41-5e8c2f1b7b02";

/** A workspace with one member, so that documents have a creator. */
const workspaceWith = (over: Partial<ImportFileInput["workspaces"][number]>): ImportFileInput => ({
  version: 1,
  workspaces: [{ name: "W", members: [{ name: "M" }], ...over }],
});
const withDatasets = (...datasets: DatasetInput[]) => workspaceWith({ datasets });
const withDocument = (document: Partial<DocumentInput>) =>
  withDatasets({ name: "D", documents: [{ name: "a.md", ...document }] });
const withConversations = (...conversations: ConversationInput[]) =>
  workspaceWith({ apps: [{ name: "A", mode: "chat", conversations }] });
const aVariable = (over: { id?: string; name: string }) => ({
  value_type: "string" as const,
  value: "x",
  ...over,
});
const rule = { id: RULE, mode: "automatic" };

/** Files that contradict themselves or the API's rules, and the issue each must report. */
const INCONSISTENT: [string, ImportFileInput, { path: string; message: RegExp }][] = [
  [
    "two variables of a conversation with one id",
    withConversations({
      user: "u",
      variables: [aVariable({ id: VARIABLE, name: "a" }), aVariable({ id: VARIABLE, name: "b" })],
    }),
    {
      path: "workspaces[0].apps[0].conversations[0].variables[1]",
      message:
        /^duplicate variable id .* \(first at workspaces\[0\]\.apps\[0\]\.conversations\[0\]\.variables\[0\]\)$/,
    },
  ],
  [
    "a conversation user over 255 characters",
    withConversations({ user: "u".repeat(256) }),
    { path: "workspaces[0].apps[0].conversations[0].user", message: /^must be at most 255 characters$/ },
  ],
  [
    "a conversation user of 3,000 characters, more than PostgreSQL indexes",
    withConversations({ user: "u".repeat(3000) }),
    { path: "workspaces[0].apps[0].conversations[0].user", message: /at most 255 characters/ },
  ],
  [
    "a processing rule id two datasets give",
    withDatasets({ name: "D1", process_rule: rule }, { name: "D2", process_rule: rule }),
    {
      path: "workspaces[0].datasets[1].process_rule",
      message: /duplicate processing rule .*another dataset's/,
    },
  ],
  [
    "a processing rule id a dataset and another dataset's document give",
    withDatasets(
      { name: "D1", process_rule: rule },
      { name: "D2", documents: [{ name: "x", process_rule: rule }] },
    ),
    {
      path: "workspaces[0].datasets[1].documents[0].process_rule",
      message: /duplicate processing rule .*first at workspaces\[0\]\.datasets\[0\]\.process_rule/,
    },
  ],
  [
    "an enabled document's disabled_at",
    withDocument({ enabled: true, disabled_at: 1 }),
    {
      path: "workspaces[0].datasets[0].documents[0].disabled_at",
      message: /^must be null when enabled is true$/,
    },
  ],
  [
    "an enabled document's disabled_by",
    withDocument({ disabled_by: "someone" }),
    { path: "workspaces[0].datasets[0].documents[0].disabled_by", message: /when enabled is true/ },
  ],
  [
    "an un-archived document's archived_at",
    withDocument({ archived: false, archived_at: 1 }),
    { path: "workspaces[0].datasets[0].documents[0].archived_at", message: /when archived is false/ },
  ],
  [
    "the completed_at of a document still indexing",
    withDocument({ indexing_status: "indexing", completed_at: 1 }),
    {
      path: "workspaces[0].datasets[0].documents[0].completed_at",
      message: /^must be null until indexing_status is completed$/,
    },
  ],
  [
    "the indexing_latency of a document whose indexing failed",
    withDocument({ indexing_status: "error", error: "boom", indexing_latency: 2.5 }),
    {
      path: "workspaces[0].datasets[0].documents[0].indexing_latency",
      message: /until indexing_status is completed/,
    },
  ],
];

describe.each(STORES)("ImportData with a file that contradicts itself (%s)", (_store, openStore) => {
  async function demoImported() {
    const store = await openStore();
    onTestFinished(() => store.close());
    const world = createProvisioningWorld(store);
    await world.importData.execute(demoWorkspaceFile());
    return { ...world, stored: await world.exportData.execute() };
  }

  it.each(INCONSISTENT)("refuses %s at its JSON path and writes nothing", async (_kind, file, expected) => {
    const { importData, exportData, stored } = await demoImported();
    const failure = await importData.execute(file).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(InvalidImportError);
    expect((failure as InvalidImportError).issues).toEqual([
      { path: expected.path, message: expect.stringMatching(expected.message) },
    ]);
    expect(await exportData.execute()).toEqual(stored);
  });

  it("takes what stored data allows: a rule shared in a dataset, a variable id in two conversations, long users", async () => {
    const { importData, exportData } = await demoImported();
    const longUser = "😀".repeat(255); // 1,020 bytes of UTF-8
    const file = workspaceWith({
      datasets: [
        {
          name: "D",
          process_rule: rule,
          documents: ["a.md", "b.md"].map((name) => ({ name, process_rule: rule })),
        },
      ],
      apps: [
        {
          name: "A",
          mode: "chat",
          conversations: ["u", longUser].map((user) => ({
            user,
            variables: [aVariable({ id: VARIABLE, name: "v" })],
          })),
        },
      ],
    });
    expect(await importData.execute(file)).toMatchObject({ documents: 2, conversations: 2 });
    const exported = await exportData.execute();
    const app = exported.workspaces.find((workspace) => workspace.name === "W")!.apps![0]!;
    const users = app.conversations!.map((conversation) => [
      conversation.user,
      conversation.variables![0]!.id,
    ]);
    expect(users.sort()).toEqual([
      ["u", VARIABLE],
      [longUser, VARIABLE],
    ]);
    await importData.execute(exported);
    expect(await exportData.execute()).toEqual(exported);
  });

  it("takes the states the API leaves, and clears a stored completed_at when indexing starts again", async () => {
    const { importData, exportData } = await demoImported();
    const document = (file: ImportFileInput) => file.workspaces[0]!.datasets![0]!.documents![0]!;
    const file = demoWorkspaceFile();
    Object.assign(document(file), {
      enabled: false,
      disabled_at: 5,
      disabled_by: DEMO.memberId,
      archived: true,
    });
    await importData.execute(file);
    const reindexing = demoWorkspaceFile();
    Object.assign(document(reindexing), {
      indexing_status: "indexing",
      completed_at: undefined,
      indexing_latency: null,
    });
    await importData.execute(reindexing);
    const exported = await exportData.execute();
    expect(document(exported)).toMatchObject({ indexing_status: "indexing", completed_at: null });
    await importData.execute(exported);
    expect(await exportData.execute()).toEqual(exported);
  });
});
