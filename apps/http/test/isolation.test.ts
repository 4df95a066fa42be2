import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "./support/http.js";
import { issueKey, type SeededWorkspace, seedWorkspace } from "./support/seed.js";
import { startTestServer, type TestServer } from "./support/test-server.js";

let server: TestServer;
let mine: SeededWorkspace;
let theirs: SeededWorkspace;

beforeAll(async () => {
  server = await startTestServer();
  mine = await seedWorkspace(server.store.repositories);
  theirs = await seedWorkspace(server.store.repositories);
});
afterAll(() => server.stop());

describe("a key of another workspace or app", () => {
  it("does not see another workspace's document", async () => {
    const response = await call(
      server.url,
      "GET",
      `/v1/datasets/${mine.dataset.id}/documents/${mine.document.id}`,
      {
        token: theirs.datasetKey,
      },
    );
    expect(response.body).toEqual({ status: 404, code: "not_found", message: "Dataset not found." });
  });

  it("does not see another workspace's metadata fields", async () => {
    const response = await call(server.url, "GET", `/v1/datasets/${mine.dataset.id}/metadata`, {
      token: theirs.datasetKey,
    });
    expect(response.body).toEqual({ status: 404, code: "not_found", message: "Dataset not found." });
  });

  it("cannot bind tags, even its own, to another workspace's dataset", async () => {
    const response = await call(server.url, "POST", "/v1/datasets/tags/binding", {
      token: theirs.datasetKey,
      body: { tag_ids: [theirs.knowledgeTags[0]!.id, mine.knowledgeTags[0]!.id], target_id: mine.dataset.id },
    });
    expect(response.body).toEqual({ status: 404, code: "not_found", message: "Dataset not found" });
    expect(await server.store.repositories.tags.boundTagIds(mine.dataset.id)).toEqual([]);
  });

  it("cannot change another app's conversation variable, even with the owner's user string", async () => {
    const response = await call(
      server.url,
      "PUT",
      `/v1/conversations/${mine.conversation.id}/variables/${mine.variable.id}`,
      {
        token: theirs.apps["advanced-chat"].key,
        body: { value: "hijacked", user: "alice" },
      },
    );
    expect(response.body).toEqual({ status: 404, code: "not_found", message: "Conversation Not Exists." });
    const stored = await server.store.repositories.conversations.findVariable(
      mine.conversation.id,
      mine.variable.id,
    );
    expect(stored?.value).toBe(mine.variable.value);
  });

  it("cannot change another app's variable in the same workspace either", async () => {
    const response = await call(
      server.url,
      "PUT",
      `/v1/conversations/${mine.conversation.id}/variables/${mine.variable.id}`,
      {
        token: mine.apps.chat.key,
        body: { value: "hijacked", user: "alice" },
      },
    );
    expect(response.body).toEqual({ status: 404, code: "not_found", message: "Conversation Not Exists." });
  });

  it("sees its own app's site, never another's", async () => {
    const response = await call(server.url, "GET", "/v1/site", { token: theirs.apps.workflow.key });
    expect(response.body.title).toBe("workflow site");
    const key = await issueKey(server.store.repositories, theirs.workspace.id, theirs.apps.chat.id);
    expect((await call(server.url, "GET", "/v1/site", { token: key })).body.title).toBe("chat site");
  });

  it("answers 401, not another workspace's data, for a knowledge key on an app route and the reverse", async () => {
    const site = await call(server.url, "GET", "/v1/site", { token: mine.datasetKey });
    expect(site.status).toBe(401);
    const document = await call(
      server.url,
      "GET",
      `/v1/datasets/${mine.dataset.id}/documents/${mine.document.id}`,
      {
        token: mine.apps.chat.key,
      },
    );
    expect(document.status).toBe(401);
  });
});
