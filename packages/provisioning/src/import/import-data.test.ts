import { describe, expect, it, onTestFinished } from "vitest";
import { DEMO, demoWorkspaceFile } from "../demo/demo-workspace.js";
import type { ImportFileInput } from "../format/import-file-schema.js";
import { InvalidImportError } from "../format/issues.js";

/** A provisioning world on a store of the kind under test, closed when the test ends. */
async function worldOn(openStore: (typeof STORES)[number][1]) {
  const store = await openStore();
  onTestFinished(() => store.close());
  return createProvisioningWorld(store);
}

import { createProvisioningWorld, STORES } from "../test-world.test-support.js";

const KEY = "ds-abcdefghijklmnopqrstuvwx";

describe.each(STORES)("ImportData (%s)", (_store, openStore) => {
  it("imports the demo workspace, deriving what the file leaves out", async () => {
    const { importData, store, clock } = await worldOn(openStore);
    const summary = await importData.execute(demoWorkspaceFile());
    expect(summary).toEqual({
      workspaces: 1,
      datasets: 1,
      documents: 4,
      apps: 2,
      conversations: 1,
      apiKeys: 0,
    });
    const { datasets, documents, metadata, conversations, apps } = store.repositories;
    const documentList = await documents.listInDataset(DEMO.datasetId);
    expect(documentList.map((document) => [document.name, document.position])).toEqual([
      ["getting-started.md", 1],
      ["warranty.pdf", 2],
      ["roadmap-2026.md", 3],
      ["faq.txt", 4],
    ]);
    // The document created by text keeps its batch and its indexing steps' times.
    expect(documentList[3]).toMatchObject({ batch: DEMO.textBatch, processingStartedAt: 1_767_225_660 });
    expect(documentList[1]).toMatchObject({
      createdBy: DEMO.memberId,
      processRule: { mode: "automatic" },
      updatedAt: null,
    });
    expect(await metadata.valuesOf(DEMO.documentId)).toEqual([
      expect.objectContaining({ name: "author", value: "Ada Lovelace" }),
      expect.objectContaining({ name: "category", value: "onboarding" }),
      expect.objectContaining({ name: "published", value: String(1_767_225_600 + 3600) }),
    ]);
    expect(await documents.chunkStats(DEMO.documentId)).toMatchObject({ count: 3, hitCount: 22 });
    expect((await datasets.findInWorkspace(DEMO.workspaceId, DEMO.datasetId))?.builtInFieldEnabled).toBe(
      true,
    );
    expect(await store.repositories.tags.boundTagIds(DEMO.datasetId)).toEqual([]);
    expect((await conversations.findVariable(DEMO.conversationId, DEMO.variableId))?.value).toBe("English");
    expect((await apps.findSite(DEMO.workflowAppId))?.title).toBe("Release notes");
    expect((await datasets.listInWorkspace(DEMO.workspaceId))[0]?.createdAt).not.toBe(clock.now);
  });

  it("changes nothing when the same file is imported again, even much later", async () => {
    const { importData, exportData, clock } = await worldOn(openStore);
    await importData.execute(demoWorkspaceFile());
    const first = await exportData.execute();
    clock.advance(86_400);
    await importData.execute(demoWorkspaceFile());
    expect(await exportData.execute()).toEqual(first);
  });

  it("places a new document without a position after the dataset's last; a stored one keeps its own", async () => {
    const { importData, store } = await worldOn(openStore);
    await importData.execute(demoWorkspaceFile());
    const stored = await store.repositories.documents.listInDataset(DEMO.datasetId);
    // The stored documents listed in another order, and a new one first, none with a position.
    const changed = demoWorkspaceFile();
    const dataset = changed.workspaces[0]!.datasets![0]!;
    dataset.documents = [
      { name: "faq.md" },
      ...stored.map((document) => ({ id: document.id, name: document.name })).reverse(),
    ];
    await importData.execute(changed);
    const placed = await store.repositories.documents.listInDataset(DEMO.datasetId);
    expect(placed.map((document) => [document.name, document.position])).toEqual([
      ["getting-started.md", 1],
      ["warranty.pdf", 2],
      ["roadmap-2026.md", 3],
      ["faq.txt", 4],
      ["faq.md", 5],
    ]);
  });

  it("places a new document without a position after every position the file gives too", async () => {
    const { importData, store } = await worldOn(openStore);
    const file = demoWorkspaceFile();
    const dataset = file.workspaces[0]!.datasets![0]!;
    dataset.documents = [{ name: "a.md" }, { name: "b.md", position: 5 }, { name: "c.md" }];
    await importData.execute(file);
    const placed = await store.repositories.documents.listInDataset(DEMO.datasetId);
    expect(placed.map((document) => [document.name, document.position])).toEqual([
      ["b.md", 5],
      ["a.md", 6],
      ["c.md", 7],
    ]);
  });

  it("updates what a changed file changes, and only that", async () => {
    const { importData, exportData, store, clock } = await worldOn(openStore);
    await importData.execute(demoWorkspaceFile());
    const before = await exportData.execute();
    const changed = demoWorkspaceFile();
    const dataset = changed.workspaces[0]!.datasets![0]!;
    dataset.documents![2]!.name = "roadmap-2027.md";
    dataset.documents![2]!.id = (await store.repositories.documents.listInDataset(DEMO.datasetId))[2]!.id;
    changed.workspaces[0]!.apps![0]!.conversations![0]!.variables![1] = {
      name: "open_tickets",
      value_type: "number",
      value: 3,
      description: "Tickets still open",
    };
    clock.advance(60);
    await importData.execute(changed);
    const after = await exportData.execute();
    const documentsAfter = after.workspaces[0]!.datasets![0]!.documents!;
    expect(documentsAfter[2]!.name).toBe("roadmap-2027.md");
    const chatApp = after.workspaces[0]!.apps!.find((app) => app.id === DEMO.chatAppId)!;
    const variable = chatApp.conversations![0]!.variables!.find((v) => v.name === "open_tickets");
    expect(variable).toMatchObject({ value: 3, updated_at: clock.now });
    documentsAfter[2]!.name = "roadmap-2026.md";
    Object.assign(variable!, { value: 2, updated_at: 1_767_225_600 });
    expect(after).toEqual(before);
  });

  it("counts a document's words from the file's segments when the file gives no word_count", async () => {
    const { importData, exportData } = await worldOn(openStore);
    const withSegments = (...contents: string[]): ImportFileInput => ({
      version: 1,
      workspaces: [
        {
          name: "W",
          members: [{ name: "M" }],
          datasets: [
            { name: "D", documents: [{ name: "a.md", segments: contents.map((content) => ({ content })) }] },
          ],
        },
      ],
    });
    const wordCount = async () =>
      (await exportData.execute()).workspaces[0]!.datasets![0]!.documents![0]!.word_count;
    await importData.execute(withSegments("abc"));
    expect(await wordCount()).toBe(3);
    await importData.execute(withSegments("abcdef", "gh"));
    expect(await wordCount()).toBe(8);
  });

  it("makes the member marked owner the owner, else the first listed, and stores values as the API does", async () => {
    const { importData, exportData } = await worldOn(openStore);
    await importData.execute({
      version: 1,
      workspaces: [
        {
          name: "W",
          members: [{ name: "First" }, { name: "Second" }],
          tags: [{ name: "bots", type: "app" }],
          datasets: [
            {
              name: "D",
              metadata_fields: [
                { name: "n", type: "number" },
                { name: "t", type: "time" },
              ],
              documents: [{ name: "x", metadata: { n: "042", t: "007" } }],
            },
          ],
          apps: [{ name: "A", mode: "chat" }],
        },
      ],
    });
    let exported = await exportData.execute();
    let workspace = exported.workspaces[0]!;
    expect(workspace.members?.map(({ name, role }) => [name, role])).toEqual([
      ["First", "owner"],
      ["Second", "normal"],
    ]);
    const owner = workspace.members?.[0]?.id;
    expect(workspace.datasets?.[0]).toMatchObject({ created_by: owner, description: "", updated_by: null });
    expect(workspace.datasets?.[0]?.documents?.[0]?.metadata).toEqual({ n: "42", t: "7" });
    expect(workspace.apps?.[0]).toMatchObject({ created_by: owner, tag_ids: [] });

    // Marking the second as owner makes the first a normal member, in one import.
    workspace.members = [
      { ...workspace.members![0]!, role: "normal" },
      { ...workspace.members![1]!, role: "owner" },
    ];
    workspace.apps![0]!.tag_ids = [workspace.tags![0]!.id!];
    await importData.execute(exported);
    exported = await exportData.execute();
    workspace = exported.workspaces[0]!;
    expect(workspace.members?.map(({ name, role }) => [name, role])).toEqual([
      ["First", "normal"],
      ["Second", "owner"],
    ]);
    expect(workspace.apps?.[0]?.tag_ids).toEqual([workspace.tags![0]!.id]);
    const again = await exportData.execute();
    await importData.execute(again);
    expect(await exportData.execute()).toEqual(again);
  });

  it('keeps names exactly as written, as the API stores them: "a" and "a " are two tags', async () => {
    const { importData, store } = await worldOn(openStore);
    await importData.execute({
      version: 1,
      workspaces: [
        {
          id: DEMO.workspaceId,
          name: " W ",
          members: [{ name: "Ada " }],
          tags: [
            { name: " sp ", type: "knowledge" },
            { name: "a", type: "knowledge" },
            { name: "a ", type: "knowledge" },
          ],
          datasets: [
            {
              id: DEMO.datasetId,
              name: "D ",
              metadata_fields: [{ name: "uploader ", type: "string" }],
              documents: [{ name: " x.md", metadata: { "uploader ": "Ada" } }],
            },
          ],
        },
      ],
    });
    const { workspaces, tags, metadata, documents, datasets } = store.repositories;
    expect((await workspaces.findById(DEMO.workspaceId))?.name).toBe(" W ");
    expect((await workspaces.listMembers(DEMO.workspaceId)).map((member) => member.name)).toEqual(["Ada "]);
    expect((await tags.listInWorkspace(DEMO.workspaceId)).map((tag) => tag.name).sort()).toEqual([
      " sp ",
      "a",
      "a ",
    ]);
    expect((await datasets.findInWorkspace(DEMO.workspaceId, DEMO.datasetId))?.name).toBe("D ");
    expect((await metadata.listFields(DEMO.datasetId)).map((field) => field.name)).toEqual(["uploader "]);
    const [document] = await documents.listInDataset(DEMO.datasetId);
    expect(document?.name).toBe(" x.md");
    expect(await metadata.valuesOf(document!.id)).toEqual([
      expect.objectContaining({ name: "uploader ", value: "Ada" }),
    ]);
  });

  it("keeps metadata fields and rules keys named __proto__ or constructor, as own keys", async () => {
    const { importData, exportData, store } = await worldOn(openStore);
    // As read from a file: JSON.parse makes "__proto__" an own key, where a literal would set the prototype.
    const file = JSON.parse(`{
      "version": 1,
      "workspaces": [{
        "id": "${DEMO.workspaceId}",
        "name": "__proto__",
        "members": [{ "name": "__proto__" }],
        "tags": [{ "name": "__proto__", "type": "knowledge" }],
        "datasets": [{
          "id": "${DEMO.datasetId}",
          "name": "__proto__",
          "process_rule": { "mode": "custom", "rules": { "__proto__": { "polluted": true }, "max_tokens": 500 } },
          "metadata_fields": [
            { "name": "__proto__", "type": "string" },
            { "name": "constructor", "type": "number" }
          ],
          "documents": [{
            "id": "${DEMO.documentId}",
            "name": "__proto__",
            "process_rule": { "mode": "custom", "rules": { "constructor": 1, "__proto__": [1, 2] } },
            "metadata": { "__proto__": "v1", "constructor": "042" }
          }]
        }]
      }]
    }`);
    const own = (value: unknown) => ({ prototype: Object.getPrototypeOf(value), keys: Object.keys(value!) });
    await importData.execute(file);
    const { tags, datasets, documents, metadata } = store.repositories;
    expect((await tags.listInWorkspace(DEMO.workspaceId)).map((tag) => tag.name)).toEqual(["__proto__"]);
    expect(await tags.boundTagIds(DEMO.datasetId)).toHaveLength(0);
    expect((await metadata.listFields(DEMO.datasetId)).map((field) => field.name)).toEqual([
      "__proto__",
      "constructor",
    ]);
    expect(await metadata.valuesOf(DEMO.documentId)).toEqual([
      expect.objectContaining({ name: "__proto__", value: "v1" }),
      expect.objectContaining({ name: "constructor", value: "42" }),
    ]);
    const datasetRules = (await datasets.findInWorkspace(DEMO.workspaceId, DEMO.datasetId))?.processRule
      ?.rules;
    expect(own(datasetRules)).toEqual({ prototype: Object.prototype, keys: ["__proto__", "max_tokens"] });
    expect(Object.getOwnPropertyDescriptor(datasetRules, "__proto__")?.value).toEqual({ polluted: true });
    const documentRules = (await documents.findInDataset(DEMO.datasetId, DEMO.documentId))?.processRule.rules;
    expect(own(documentRules)).toEqual({ prototype: Object.prototype, keys: ["constructor", "__proto__"] });
    expect(Object.getOwnPropertyDescriptor(documentRules, "__proto__")?.value).toEqual([1, 2]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();

    // A backup restores what it saved: the export writes the keys, and importing it changes nothing.
    const exported = await exportData.execute();
    const document = exported.workspaces[0]!.datasets![0]!.documents![0]!;
    expect(own(document.metadata)).toEqual({
      prototype: Object.prototype,
      keys: ["__proto__", "constructor"],
    });
    expect(JSON.parse(JSON.stringify(document.metadata))).toEqual(
      JSON.parse('{"__proto__":"v1","constructor":"42"}'),
    );
    expect(JSON.stringify(document.process_rule?.rules)).toBe('{"constructor":1,"__proto__":[1,2]}');
    await importData.execute(JSON.parse(JSON.stringify(exported)));
    expect(await exportData.execute()).toEqual(exported);
    expect(await metadata.valuesOf(DEMO.documentId)).toHaveLength(2);
  });

  it("reports progress over the documents", async () => {
    const { importData } = await worldOn(openStore);
    const seen: string[] = [];
    await importData.execute(demoWorkspaceFile(), ({ documentsDone, documentsTotal }) =>
      seen.push(`${documentsDone}/${documentsTotal}`),
    );
    expect(seen).toEqual(["1/4", "2/4", "3/4", "4/4"]);
  });

  it("hashes plaintext keys and accepts exported hashes", async () => {
    const { importData, store, hasher } = await worldOn(openStore);
    const hashed = `sha256:${"ab".repeat(32)}`;
    await importData.execute({ version: 1, workspaces: [{ name: "Keys", dataset_api_keys: [KEY, hashed] }] });
    const keys = await store.repositories.apiKeys.list();
    expect(keys.map((key) => key.tokenHash).sort()).toEqual([hasher.hash(KEY), "ab".repeat(32)].sort());
    expect(JSON.stringify(keys)).not.toContain(KEY);
    expect(keys.map((key) => key.displayPrefix).sort()).toEqual(["ds-", "ds-abcd"]);
  });
});

/** One bad file per kind of problem, and the issue it must report. */
const BAD_FILES: [string, unknown, { path: string; message: RegExp }][] = [
  ["not an object", [], { path: "", message: /object/ }],
  ["a wrong version", { version: 2, workspaces: [] }, { path: "version", message: /1/ }],
  [
    "a wrong type",
    { version: 1, workspaces: [{ name: 42 }] },
    { path: "workspaces[0].name", message: /string/ },
  ],
  [
    "an unknown field name",
    { version: 1, workspaces: [{ name: "W", colour: "red" }] },
    { path: "workspaces[0]", message: /colour/ },
  ],
  [
    "an unknown enum value",
    { version: 1, workspaces: [{ name: "W", apps: [{ name: "A", mode: "chatbot" }] }] },
    { path: "workspaces[0].apps[0].mode", message: /advanced-chat/ },
  ],
  [
    "an id that is not a UUID",
    { version: 1, workspaces: [{ id: "w-1", name: "W" }] },
    { path: "workspaces[0].id", message: /UUID|GUID/i },
  ],
  [
    "a duplicate id",
    {
      version: 1,
      workspaces: [
        { id: DEMO.workspaceId, name: "A" },
        { id: DEMO.workspaceId, name: "B" },
      ],
    },
    { path: "workspaces[1]", message: /duplicate workspace .*first at workspaces\[0\]/ },
  ],
  [
    "a dangling tag id",
    { version: 1, workspaces: [{ name: "W", datasets: [{ name: "D", tag_ids: [DEMO.tagIds[0]] }] }] },
    { path: "workspaces[0].datasets[0].tag_ids[0]", message: /not a knowledge tag of this workspace/ },
  ],
  [
    "an app tag bound to a dataset",
    {
      version: 1,
      workspaces: [
        {
          name: "W",
          tags: [{ id: DEMO.tagIds[0], name: "t", type: "app" }],
          datasets: [{ name: "D", tag_ids: [DEMO.tagIds[0]] }],
        },
      ],
    },
    { path: "workspaces[0].datasets[0].tag_ids[0]", message: /not a knowledge tag/ },
  ],
  [
    "an undefined metadata field",
    {
      version: 1,
      workspaces: [
        {
          name: "W",
          members: [{ name: "M" }],
          datasets: [{ name: "D", documents: [{ name: "x", metadata: { author: "A" } }] }],
        },
      ],
    },
    {
      path: "workspaces[0].datasets[0].documents[0].metadata.author",
      message: /field "author" is not defined for this dataset/,
    },
  ],
  [
    "a metadata value of the wrong type",
    {
      version: 1,
      workspaces: [
        {
          name: "W",
          members: [{ name: "M" }],
          datasets: [
            {
              name: "D",
              metadata_fields: [{ name: "year", type: "number" }],
              documents: [{ name: "x", metadata: { year: "soon" } }],
            },
          ],
        },
      ],
    },
    { path: "workspaces[0].datasets[0].documents[0].metadata.year", message: /number/ },
  ],
  [
    "a metadata value neither text nor a number",
    {
      version: 1,
      workspaces: [
        {
          name: "W",
          members: [{ name: "M" }],
          datasets: [{ name: "D", documents: [{ name: "x", metadata: { year: true } }] }],
        },
      ],
    },
    { path: "workspaces[0].datasets[0].documents[0].metadata.year", message: /Invalid input/ },
  ],
  [
    "a metadata value neither text nor a number, of a field named __proto__",
    JSON.parse(`{
      "version": 1,
      "workspaces": [{
        "name": "W",
        "members": [{ "name": "M" }],
        "datasets": [{ "name": "D", "documents": [{ "name": "x", "metadata": { "__proto__": true } }] }]
      }]
    }`),
    { path: "workspaces[0].datasets[0].documents[0].metadata.__proto__", message: /Invalid input/ },
  ],
  [
    "a creator who is not a member",
    {
      version: 1,
      workspaces: [
        { name: "W", datasets: [{ name: "D", documents: [{ name: "x", created_by: "someone" }] }] },
      ],
    },
    { path: "workspaces[0].datasets[0].documents[0].created_by", message: /not a member/ },
  ],
  [
    "a variable value of the wrong type",
    {
      version: 1,
      workspaces: [
        {
          name: "W",
          apps: [
            {
              name: "A",
              mode: "chat",
              conversations: [{ user: "u", variables: [{ name: "n", value_type: "number", value: "2" }] }],
            },
          ],
        },
      ],
    },
    {
      path: "workspaces[0].apps[0].conversations[0].variables[0].value",
      message: /Type mismatch: variable 'n' expects number, but got string type/,
    },
  ],
  [
    "a NUL in a name",
    { version: 1, workspaces: [{ name: "W", tags: [{ name: "bad\u0000tag", type: "knowledge" }] }] },
    { path: "workspaces[0].tags[0].name", message: /NUL/ },
  ],
  [
    "a lone surrogate in a user",
    {
      version: 1,
      workspaces: [{ name: "W", apps: [{ name: "A", mode: "chat", conversations: [{ user: "\uD800" }] }] }],
    },
    { path: "workspaces[0].apps[0].conversations[0].user", message: /lone surrogate/ },
  ],
  [
    "a variable value nested deeper than 64 levels",
    {
      version: 1,
      workspaces: [
        {
          name: "W",
          apps: [
            {
              name: "A",
              mode: "chat",
              conversations: [
                {
                  user: "u",
                  variables: [
                    {
                      name: "n",
                      value_type: "array[any]",
                      value: JSON.parse(`${"[".repeat(65)}${"]".repeat(65)}`),
                    },
                  ],
                },
              ],
            },
          ],
        },
      ],
    },
    { path: "workspaces[0].apps[0].conversations[0].variables[0].value", message: /deeper than 64/ },
  ],
  [
    "a tag name over 50 characters",
    { version: 1, workspaces: [{ name: "W", tags: [{ name: "x".repeat(51), type: "knowledge" }] }] },
    { path: "workspaces[0].tags[0].name", message: /^Name must be between 1 to 50 characters\.$/ },
  ],
  [
    "two tags of a kind with one name",
    {
      version: 1,
      workspaces: [
        {
          name: "W",
          tags: [
            { name: "red", type: "knowledge" },
            { name: "red", type: "app" },
            { id: "0d3f5a10-6c2e-4b7d-9a41-5e8c2f1b7aff", name: "red", type: "knowledge" },
          ],
        },
      ],
    },
    { path: "workspaces[0].tags[2].name", message: /duplicate knowledge tag name "red"/ },
  ],
  [
    "a metadata field named like a built-in",
    {
      version: 1,
      workspaces: [
        { name: "W", datasets: [{ name: "D", metadata_fields: [{ name: "uploader", type: "string" }] }] },
      ],
    },
    { path: "workspaces[0].datasets[0].metadata_fields[0].name", message: /Built-in fields/ },
  ],
  [
    "two owners",
    {
      version: 1,
      workspaces: [
        {
          name: "W",
          members: [
            { name: "A", role: "owner" },
            { name: "B", role: "owner" },
          ],
        },
      ],
    },
    { path: "workspaces[0].members[1].role", message: /duplicate owner/ },
  ],
  [
    "an app bound to a knowledge tag",
    {
      version: 1,
      workspaces: [
        {
          name: "W",
          tags: [{ id: "0d3f5a10-6c2e-4b7d-9a41-5e8c2f1b7aee", name: "k", type: "knowledge" }],
          apps: [{ name: "A", mode: "chat", tag_ids: ["0d3f5a10-6c2e-4b7d-9a41-5e8c2f1b7aee"] }],
        },
      ],
    },
    { path: "workspaces[0].apps[0].tag_ids[0]", message: /not an app tag/ },
  ],
  [
    "a dataset creator who is not a member",
    { version: 1, workspaces: [{ name: "W", datasets: [{ name: "D", created_by: "someone" }] }] },
    { path: "workspaces[0].datasets[0].created_by", message: /not a member/ },
  ],
  [
    "a time value with a fraction",
    {
      version: 1,
      workspaces: [
        {
          name: "W",
          members: [{ name: "M" }],
          datasets: [
            {
              name: "D",
              metadata_fields: [{ name: "at", type: "time" }],
              documents: [{ name: "x", metadata: { at: 1.5 } }],
            },
          ],
        },
      ],
    },
    { path: "workspaces[0].datasets[0].documents[0].metadata.at", message: /whole seconds/ },
  ],
  [
    "a key of the wrong kind",
    { version: 1, workspaces: [{ name: "W", dataset_api_keys: ["app-abcdefghijklmnopqrstuvwx"] }] },
    { path: "workspaces[0].dataset_api_keys[0]", message: /must start with ds-/ },
  ],
  [
    "a malformed key",
    { version: 1, workspaces: [{ name: "W", dataset_api_keys: ["ds-short"] }] },
    { path: "workspaces[0].dataset_api_keys[0]", message: /sha256/ },
  ],
  [
    "a duplicate field name",
    {
      version: 1,
      workspaces: [
        {
          name: "W",
          datasets: [
            {
              name: "D",
              metadata_fields: [
                { name: "a", type: "string" },
                { name: "a", type: "number" },
              ],
            },
          ],
        },
      ],
    },
    { path: "workspaces[0].datasets[0].metadata_fields[1]", message: /duplicate/ },
  ],
];

describe.each(STORES)("ImportData with a bad file (%s)", (_store, openStore) => {
  it.each(BAD_FILES)("reports %s at its JSON path and writes nothing", async (_kind, file, expected) => {
    const { importData, exportData } = await worldOn(openStore);
    await importData.execute(demoWorkspaceFile());
    const before = await exportData.execute();
    const failure = await importData.execute(file).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(InvalidImportError);
    const issues = (failure as InvalidImportError).issues;
    expect(issues).toContainEqual({ path: expected.path, message: expect.stringMatching(expected.message) });
    expect(await exportData.execute()).toEqual(before);
  });

  it("refuses a NUL or a lone surrogate outside variable values, and only there", async () => {
    const { importData, exportData } = await worldOn(openStore);
    const before = await exportData.execute();
    const file = {
      version: 1,
      workspaces: [
        {
          name: "W",
          members: [{ name: "M" }],
          tags: [{ name: "bad\u0000tag", type: "knowledge" }],
          datasets: [
            {
              name: "D",
              metadata_fields: [
                { name: "note", type: "string" },
                { name: "f\ud800", type: "string" },
              ],
              documents: [{ name: "x", metadata: { note: "a\u0000b" } }],
            },
          ],
          apps: [
            {
              name: "A",
              mode: "chat",
              conversations: [
                {
                  user: "u",
                  variables: [
                    { name: "v\u0000", value_type: "string", value: "\u0000" },
                    { name: "w", value_type: "array[string]", value: ["\ud800"], description: "\udc00" },
                    { name: "o", value_type: "object", value: { "\u0000": "\ud800" } },
                  ],
                },
              ],
            },
          ],
        },
      ],
    };
    const failure = (await importData.execute(file).catch((error: unknown) => error)) as InvalidImportError;
    expect(failure).toBeInstanceOf(InvalidImportError);
    const message = "text with a NUL or a lone surrogate cannot be stored";
    const at = "workspaces[0]";
    const variables = `${at}.apps[0].conversations[0].variables`;
    expect(failure.issues).toEqual(
      [
        `${at}.tags[0].name`,
        `${at}.datasets[0].metadata_fields[1].name`,
        `${at}.datasets[0].documents[0].metadata.note`,
        `${variables}[0].name`,
        `${variables}[1].description`,
      ].map((path) => ({ path, message })),
    );
    expect(await exportData.execute()).toEqual(before);
  });

  it("refuses blank names of every kind, as the API refuses them, whatever whitespace they hold", async () => {
    const { importData, exportData } = await worldOn(openStore);
    const before = await exportData.execute();
    const file = {
      version: 1,
      workspaces: [
        {
          name: "",
          members: [{ name: " " }],
          tags: [
            { name: "  ", type: "knowledge" },
            { name: "\t", type: "app" },
          ],
          datasets: [
            {
              name: "\n",
              metadata_fields: [{ name: "\u3000", type: "string" }],
              documents: [
                {
                  name: "\u00a0",
                  upload_file: { name: " ", size: 1, extension: "md", mime_type: "text/markdown" },
                },
              ],
            },
          ],
          apps: [
            {
              name: " \r\n ",
              mode: "chat",
              conversations: [{ user: "u", variables: [{ name: " ", value_type: "string", value: "" }] }],
            },
          ],
        },
      ],
    };
    const failure = (await importData.execute(file).catch((error: unknown) => error)) as InvalidImportError;
    expect(failure).toBeInstanceOf(InvalidImportError);
    const message = "Name must not be blank.";
    const at = "workspaces[0]";
    expect(failure.issues).toEqual(
      [
        `${at}.name`,
        `${at}.members[0].name`,
        `${at}.tags[0].name`,
        `${at}.tags[1].name`,
        `${at}.datasets[0].name`,
        `${at}.datasets[0].metadata_fields[0].name`,
        `${at}.datasets[0].documents[0].name`,
        `${at}.datasets[0].documents[0].upload_file.name`,
        `${at}.apps[0].name`,
        `${at}.apps[0].conversations[0].variables[0].name`,
      ].map((path) => ({ path, message })),
    );
    expect(await exportData.execute()).toEqual(before);
  });

  it("reports every problem of the file, not just the first", async () => {
    const { importData } = await worldOn(openStore);
    const file = { version: 1, workspaces: [{ name: 1 }, { name: "W", extra: true }, { name: "" }] };
    const failure = (await importData.execute(file).catch((error: unknown) => error)) as InvalidImportError;
    expect(failure.issues.map((issue) => issue.path)).toEqual([
      "workspaces[0].name",
      "workspaces[1]",
      "workspaces[2].name",
    ]);
    expect(failure.message).toContain("3 problems");
  });

  it("never shows a key in its messages", async () => {
    const { importData } = await worldOn(openStore);
    const failure = (await importData
      .execute({ version: 1, workspaces: [{ name: "W", dataset_api_keys: [KEY, KEY] }] })
      .catch((error: unknown) => error)) as InvalidImportError;
    expect(failure.issues).toEqual([
      { path: "workspaces[0].dataset_api_keys[1]", message: expect.stringMatching(/duplicate key/) },
    ]);
    expect(failure.message).not.toContain(KEY.slice(3));
  });

  it("rolls back everything when a write fails halfway, such as a key issued elsewhere", async () => {
    const { importData, exportData } = await worldOn(openStore);
    await importData.execute({ version: 1, workspaces: [{ name: "First", dataset_api_keys: [KEY] }] });
    const before = await exportData.execute();
    const file: ImportFileInput = demoWorkspaceFile();
    file.workspaces[0]!.dataset_api_keys = [KEY];
    const failure = (await importData.execute(file).catch((error: unknown) => error)) as InvalidImportError;
    expect(failure.issues).toEqual([
      { path: "workspaces[0].dataset_api_keys[0]", message: expect.stringMatching(/another workspace/) },
    ]);
    expect(await exportData.execute()).toEqual(before);
  });
});
