import { aDataset, aTag } from "@service-api/ports/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "./support/http.js";
import { successStatusOf } from "./support/response-schemas.js";
import { type SeededWorkspace, seedWorkspace } from "./support/seed.js";
import { startTestServer, type TestServer } from "./support/test-server.js";

let server: TestServer;
let world: SeededWorkspace;
let other: SeededWorkspace;

beforeAll(async () => {
  server = await startTestServer();
  world = await seedWorkspace(server.store.repositories);
  other = await seedWorkspace(server.store.repositories);
});
afterAll(() => server.stop());

const bind = (body: unknown, token = world.datasetKey) =>
  call(server.url, "POST", "/v1/datasets/tags/binding", { token, body });

async function freshDataset() {
  const dataset = aDataset(world.workspace.id);
  await server.store.repositories.datasets.save(dataset);
  return dataset;
}
const boundTo = (datasetId: string) => server.store.repositories.tags.boundTagIds(datasetId);

describe("POST /v1/datasets/tags/binding", () => {
  it("binds the tags and answers 204 with an empty body", async () => {
    const dataset = await freshDataset();
    const [finance, legal] = world.knowledgeTags.map((tag) => tag.id) as [string, string];
    const response = await bind({ tag_ids: [finance, legal], target_id: dataset.id });
    expect(response.status).toBe(successStatusOf("bindTagsToDataset"));
    expect(response.status).toBe(204);
    expect(response.text).toBe("");
    expect(await boundTo(dataset.id)).toEqual([finance, legal].sort());
  });

  it("silently ignores unknown tags, another workspace's tags and app tags", async () => {
    const dataset = await freshDataset();
    const [finance] = world.knowledgeTags;
    const response = await bind({
      tag_ids: [crypto.randomUUID(), "not-a-uuid", other.knowledgeTags[0]!.id, world.appTag.id, finance!.id],
      target_id: dataset.id,
    });
    expect(response.status).toBe(204);
    expect(await boundTo(dataset.id)).toEqual([finance!.id]);
  });

  it("binds every eligible tag of a long list (more ids than the query plans kept per length)", async () => {
    const dataset = await freshDataset();
    const many = Array.from({ length: 66 }, (_, index) =>
      aTag(world.workspace.id, { name: `many-${index}` }),
    );
    for (const tag of many) await server.store.repositories.tags.save(tag);
    const ids = many.map((tag) => tag.id);
    expect((await bind({ tag_ids: [...ids, crypto.randomUUID()], target_id: dataset.id })).status).toBe(204);
    expect(await boundTo(dataset.id)).toEqual([...ids].sort());
  });

  it("answers 204 and binds nothing when no id is eligible", async () => {
    const dataset = await freshDataset();
    expect((await bind({ tag_ids: [crypto.randomUUID()], target_id: dataset.id })).status).toBe(204);
    expect(await boundTo(dataset.id)).toEqual([]);
  });

  it("leaves one binding per pair after repeated calls and repeated ids", async () => {
    const dataset = await freshDataset();
    const finance = world.knowledgeTags[0]!.id;
    for (let attempt = 0; attempt < 3; attempt++) {
      expect((await bind({ tag_ids: [finance, finance], target_id: dataset.id })).status).toBe(204);
    }
    expect(await boundTo(dataset.id)).toEqual([finance]);
  });

  it("leaves one binding per pair after concurrent calls", async () => {
    const dataset = await freshDataset();
    const tags = Array.from({ length: 5 }, () => aTag(world.workspace.id));
    for (const tag of tags) await server.store.repositories.tags.save(tag);
    const ids = tags.map((tag) => tag.id);
    const responses = await Promise.all(
      Array.from({ length: 25 }, (_, index) =>
        bind({ tag_ids: [...ids].reverse().slice(index % 3), target_id: dataset.id }),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual(responses.map(() => 204));
    expect((await boundTo(dataset.id)).sort()).toEqual([...ids].sort());
  });

  it("answers 404 Dataset not found (no period) for another workspace's or an unknown dataset", async () => {
    for (const target of [other.dataset.id, crypto.randomUUID()]) {
      const response = await bind({ tag_ids: [world.knowledgeTags[0]!.id], target_id: target });
      expect(response.body).toEqual({ status: 404, code: "not_found", message: "Dataset not found" });
    }
    expect(await boundTo(other.dataset.id)).toEqual([]);
  });

  it("binds even when the dataset's API access is off, as the reference does", async () => {
    const dataset = aDataset(world.workspace.id, { enableApi: false });
    await server.store.repositories.datasets.save(dataset);
    expect((await bind({ tag_ids: [world.knowledgeTags[0]!.id], target_id: dataset.id })).status).toBe(204);
    expect(await boundTo(dataset.id)).toEqual([world.knowledgeTags[0]!.id]);
  });

  it.each([{ tag_ids: [], target_id: "x" }, { target_id: "x" }])(
    "asks for tag ids in the API's words for %j",
    async (body) => {
      expect((await bind(body)).body).toEqual({
        status: 400,
        code: "invalid_param",
        message: "tag_ids: Tag IDs is required.",
      });
    },
  );

  it.each([
    [{ tag_ids: [], target_id: "x" }, "tag_ids"],
    [{ target_id: "x" }, "tag_ids"],
    [{ tag_ids: "abc", target_id: "x" }, "tag_ids"],
    [{ tag_ids: [1, 2], target_id: "x" }, "tag_ids"],
    [{ tag_ids: ["a"] }, "target_id"],
    [{ tag_ids: ["a"], target_id: 5 }, "target_id"],
    [["a"], "body"],
  ])("answers 400 invalid_param for %j, naming %s", async (body, field) => {
    const response = await bind(body);
    expect(response.status).toBe(400);
    expect(response.body.code).toBe("invalid_param");
    expect(response.body.message).toContain(field);
  });
});
