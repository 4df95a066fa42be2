import type { Store } from "@service-api/ports";
import { describe, expect, it, onTestFinished } from "vitest";
import { demoWorkspaceFile } from "../demo/demo-workspace.js";
import type { ImportFileInput } from "../format/import-file-schema.js";
import { createProvisioningWorld, STORES } from "../test-world.test-support.js";
import { ExportData } from "./export-data.js";

/** Pages of two, so that every read of the export pages. */
const SMALL_PAGES = { documentsPerRead: 2 };

const id = (suffix: number) => `7b2e4c1a-9d3f-4a6b-8c5e-${String(suffix).padStart(12, "0")}`;
const T = 1_767_225_600;

/**
 * The demo workspace, one with a dataset whose documents were created in another order than
 * their positions (two of them at one position), an empty dataset and apps with and without
 * conversations, and a workspace holding nothing.
 */
function severalWorkspaces(): ImportFileInput {
  const positions = [3, 1, 2, 1, 5];
  return {
    version: 1,
    workspaces: [
      ...demoWorkspaceFile().workspaces,
      {
        id: id(1),
        name: "Second",
        members: [{ name: "Owner" }],
        tags: [{ id: id(2), name: "kb", type: "knowledge", created_at: T }],
        datasets: [
          {
            id: id(10),
            name: "Shuffled",
            tag_ids: [id(2)],
            metadata_fields: [
              { id: id(11), name: "author", type: "string", created_at: T },
              { id: id(12), name: "year", type: "number", created_at: T + 1 },
            ],
            documents: positions.map((position, index) => ({
              id: id(100 - index),
              name: `doc-${index}.md`,
              position,
              created_at: T + ((index * 7) % 5),
              metadata: (index % 2 === 0 ? { year: 2000 + index, author: `Author ${index}` } : {}) as Record<
                string,
                string | number
              >,
              segments: [{ content: `Chunk of ${index}` }, { content: "Second chunk\nwith a newline" }],
            })),
          },
          { id: id(20), name: "Empty" },
        ],
        apps: [
          {
            id: id(30),
            name: "Chat",
            mode: "chat",
            conversations: [
              { id: id(31), user: "u1", variables: [{ name: "v", value_type: "string", value: "x" }] },
              { id: id(32), user: "u2" },
            ],
          },
          { id: id(33), name: "Quiet", mode: "completion" },
        ],
      },
      { id: id(40), name: "Nothing yet", members: [{ name: "Owner" }] },
    ],
  };
}

async function worldOn(openStore: () => Promise<Store>) {
  const store = await openStore();
  onTestFinished(() => store.close());
  return createProvisioningWorld(store);
}

/** `repository`, its method `name` replaced. */
function withMethod<T extends object>(repository: T, name: string, method: unknown): T {
  return new Proxy(repository, {
    get: (target, property) => {
      if (property === name) return method;
      const member = Reflect.get(target, property);
      return typeof member === "function" ? member.bind(target) : member;
    },
  });
}

async function written(exportData: ExportData): Promise<{ text: string; pieces: number }> {
  const pieces: string[] = [];
  await exportData.writeTo((piece) => {
    pieces.push(piece);
  });
  return { text: pieces.join(""), pieces: pieces.length };
}

describe.each(STORES)("ExportData, written piece by piece (%s)", (_store, openStore) => {
  it("writes exactly JSON.stringify(execute(), null, 2) and a newline, in pieces", async () => {
    const world = await worldOn(openStore);
    await world.importData.execute(severalWorkspaces());
    await world.issueKey.execute({ workspaceId: id(1) });
    const exportData = new ExportData(world.store, SMALL_PAGES);

    const { text, pieces } = await written(exportData);
    expect(text).toBe(`${JSON.stringify(await exportData.execute(), null, 2)}\n`);
    expect(pieces).toBeGreaterThan(10);
    expect(await exportData.writeTo(() => {})).toEqual({ workspaces: 3, documents: 9 });
  });

  it("writes an empty store as no workspaces", async () => {
    const world = await worldOn(openStore);
    expect((await written(world.exportData)).text).toBe('{\n  "version": 1,\n  "workspaces": []\n}\n');
  });

  it("lists documents by position then id, as created in any order, a page at a time", async () => {
    const world = await worldOn(openStore);
    await world.importData.execute(severalWorkspaces());
    const exported = await new ExportData(world.store, SMALL_PAGES).execute();
    const documents = exported.workspaces.find((workspace) => workspace.id === id(1))!.datasets![0]!
      .documents!;
    expect(documents.map((document) => [document.position, document.id])).toEqual([
      [1, id(97)],
      [1, id(99)],
      [2, id(98)],
      [3, id(100)],
      [5, id(96)],
    ]);
    expect(documents[2]!.metadata).toEqual({ author: "Author 2", year: "2002" });
    expect(documents[2]!.segments?.map((segment) => segment.content)).toEqual([
      "Chunk of 2",
      "Second chunk\nwith a newline",
    ]);
  });

  it("exports one state while a field is renamed meanwhile: the fields and the values agree", async () => {
    const world = await worldOn(openStore);
    await world.importData.execute(severalWorkspaces());
    const { store } = world;
    // Another writer renames the field once the export has read the fields, before their values.
    const renamingMeanwhile: Store = {
      ...store,
      snapshot: (work) =>
        store.snapshot((repositories) =>
          work({
            ...repositories,
            metadata: withMethod(repositories.metadata, "listFields", async (datasetId: string) => {
              const fields = await repositories.metadata.listFields(datasetId);
              if (datasetId === id(10))
                await store.repositories.metadata.renameField(id(10), id(11), "writer");
              return fields;
            }),
          }),
        ),
    };

    const exported = JSON.parse((await written(new ExportData(renamingMeanwhile, SMALL_PAGES))).text);
    const dataset = exported.workspaces.find((workspace: { id: string }) => workspace.id === id(1))
      .datasets[0];
    expect(dataset.metadata_fields.map((field: { name: string }) => field.name)).toEqual(["author", "year"]);
    expect(dataset.documents[3].metadata).toEqual({ author: "Author 0", year: "2000" });
    const copy = await worldOn(openStore);
    await expect(copy.importData.execute(exported)).resolves.toBeDefined();
    expect((await world.store.repositories.metadata.listFields(id(10)))[0]?.name).toBe("writer");
  });
});
