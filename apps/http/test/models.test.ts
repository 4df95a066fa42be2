import { MODEL_TYPES } from "@service-api/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "./support/http.js";
import { type SeededWorkspace, seedWorkspace } from "./support/seed.js";
import { startTestServer, type TestServer } from "./support/test-server.js";

let server: TestServer;
let world: SeededWorkspace;
beforeAll(async () => {
  server = await startTestServer();
  world = await seedWorkspace(server.store.repositories);
});
afterAll(() => server.stop());

const models = (type: string, token?: string) =>
  call(server.url, "GET", `/v1/workspaces/current/models/model-types/${type}`, { token });

describe("GET /v1/workspaces/current/models/model-types/{model_type}", () => {
  it.each(MODEL_TYPES)("answers %s with no provider: no model can run or be reached here", async (type) => {
    const response = await models(type, world.datasetKey);
    expect({ status: response.status, body: response.body }).toEqual({ status: 200, body: { data: [] } });
  });

  it.each(["embedding", "LLM", "", "text-embedding "])("refuses a model type %j", async (type) => {
    const response = await models(encodeURIComponent(type), world.datasetKey);
    if (type === "") {
      expect(response.status).toBe(404);
      return;
    }
    expect({ status: response.status, body: response.body }).toEqual({
      status: 400,
      body: {
        status: 400,
        code: "invalid_param",
        message: "model_type: must be one of llm, text-embedding, rerank, speech2text, moderation, tts.",
      },
    });
  });

  it("takes a knowledge key only", async () => {
    expect((await models("llm")).status).toBe(401);
    expect((await models("llm", world.apps.chat.key)).status).toBe(401);
  });
});
