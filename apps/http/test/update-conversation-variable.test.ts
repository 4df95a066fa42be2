import type { AppMode, VariableType } from "@service-api/domain";
import { aVariable } from "@service-api/ports/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "./support/http.js";
import { schemaProperties } from "./support/response-schemas.js";
import { type SeededWorkspace, seedWorkspace } from "./support/seed.js";
import { startTestServer, type TestServer } from "./support/test-server.js";

let server: TestServer;
let world: SeededWorkspace;

beforeAll(async () => {
  server = await startTestServer();
  world = await seedWorkspace(server.store.repositories);
});
afterAll(() => server.stop());

const remoteFile = { type: "image", transfer_method: "remote_url", url: "https://example.com/cat.png" };
const localFile = {
  type: "document",
  transfer_method: "local_file",
  upload_file_id: "4b0c3f0e-1b7a-4a43-9d55-3c2f0c7b9a10",
};

/** For each type: values it takes, and values it refuses with the JSON type the message names. */
const CASES: Record<VariableType, { accepts: unknown[]; refuses: [unknown, string][] }> = {
  string: {
    accepts: ["green tea", ""],
    refuses: [
      [42, "number"],
      [true, "boolean"],
      [null, "null"],
      [["a"], "array[string]"],
    ],
  },
  secret: {
    accepts: ["s3cr3t"],
    refuses: [
      [{ a: 1 }, "object"],
      [1.5, "number"],
    ],
  },
  number: {
    accepts: [42, -1.5, 0],
    refuses: [
      ["42", "string"],
      [true, "boolean"],
      [[1], "array[number]"],
    ],
  },
  boolean: {
    accepts: [true, false],
    refuses: [
      [0, "number"],
      ["true", "string"],
      [null, "null"],
    ],
  },
  object: {
    accepts: [{ a: 1, b: { c: [true] } }, {}],
    refuses: [
      [[], "array[any]"],
      [null, "null"],
      ["{}", "string"],
    ],
  },
  file: {
    accepts: [remoteFile, localFile],
    refuses: [
      [{ a: 1 }, "object"],
      ["https://x", "string"],
      [[remoteFile], "array[object]"],
    ],
  },
  "array[any]": {
    accepts: [[1, "a", null], []],
    refuses: [
      [{}, "object"],
      ["[]", "string"],
    ],
  },
  "array[string]": {
    accepts: [["a", "b"], []],
    refuses: [
      [["a", 1], "array[any]"],
      [[1], "array[number]"],
      ["a", "string"],
    ],
  },
  "array[number]": {
    accepts: [[1, 2.5], []],
    refuses: [
      [["1"], "array[string]"],
      [[true], "array[boolean]"],
    ],
  },
  "array[object]": {
    accepts: [[{ a: 1 }, {}], []],
    refuses: [
      [[1], "array[number]"],
      [{ a: 1 }, "object"],
    ],
  },
  "array[file]": {
    accepts: [[remoteFile, localFile], []],
    refuses: [
      [[{ a: 1 }], "array[object]"],
      [remoteFile, "object"],
    ],
  },
  "array[boolean]": {
    accepts: [[true, false], []],
    refuses: [
      [[1, 0], "array[number]"],
      [true, "boolean"],
    ],
  },
};

async function newVariable(valueType: VariableType, value: unknown) {
  const variable = aVariable(world.conversation.id, { valueType, value, name: `var_${valueType}` });
  await server.store.repositories.conversations.saveVariable(variable);
  return variable;
}

const put = (
  variableId: string,
  body: unknown,
  token = world.apps["advanced-chat"].key,
  conversationId = world.conversation.id,
) => call(server.url, "PUT", `/v1/conversations/${conversationId}/variables/${variableId}`, { token, body });

const stored = (variableId: string, conversationId = world.conversation.id) =>
  server.store.repositories.conversations.findVariable(conversationId, variableId);

describe("PUT /v1/conversations/{conversation_id}/variables/{variable_id}", () => {
  it("stores the new value and answers with the variable, valid against Dify's published schema", async () => {
    const before = Math.floor(Date.now() / 1000);
    const response = await put(world.variable.id, { value: "coffee", user: "alice" });
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(
      schemaProperties("updateChatConversationVariable").sort(),
    );
    expect(response.body).toMatchObject({
      id: world.variable.id,
      name: "user_preference",
      value_type: "string",
      value: "coffee",
      description: world.variable.description,
      created_at: world.variable.createdAt,
    });
    expect(response.body.updated_at).toBeGreaterThanOrEqual(before);
    expect((await stored(world.variable.id))?.value).toBe("coffee");
  });

  for (const [valueType, { accepts, refuses }] of Object.entries(CASES) as [
    VariableType,
    (typeof CASES)[VariableType],
  ][]) {
    it(`accepts every ${valueType} value and answers it as text`, async () => {
      const variable = await newVariable(valueType, accepts[0]);
      for (const value of accepts) {
        const response = await put(variable.id, { value, user: "alice" });
        expect(response.status).toBe(200);
        const text = valueType === "string" || valueType === "secret" ? value : JSON.stringify(value);
        expect(response.body.value).toBe(text);
        expect((await stored(variable.id))?.value).toEqual(value);
      }
    });

    it(`refuses other types for ${valueType} with the mismatch message, writing nothing`, async () => {
      const variable = await newVariable(valueType, accepts[0]);
      for (const [value, got] of refuses) {
        const response = await put(variable.id, { value, user: "alice" });
        expect(response.body).toEqual({
          status: 400,
          code: "bad_request",
          message: `Type mismatch: variable '${variable.name}' expects ${valueType}, but got ${got} type`,
        });
        expect(await stored(variable.id)).toEqual(variable);
      }
    });
  }

  // A number past a double's range parses as Infinity, which JSON would store as null: refused
  // wherever it is in the value, and named as out of range.
  it.each([
    ["number", 1, "1e400", "out-of-range number"],
    ["object", { a: 1 }, '{"a":1e400,"b":[-1e999]}', "object holding an out-of-range number"],
    ["array[any]", [1], '["x",1e400]', "array[any] holding an out-of-range number"],
  ] as const)(
    "refuses for a %s variable a value holding a number past a double's range",
    async (type, initial, raw, got) => {
      const variable = await newVariable(type, initial);
      const response = await call(
        server.url,
        "PUT",
        `/v1/conversations/${world.conversation.id}/variables/${variable.id}`,
        {
          token: world.apps["advanced-chat"].key,
          rawBody: `{"value":${raw},"user":"alice"}`,
          headers: { "content-type": "application/json" },
        },
      );
      expect(response.body).toEqual({
        status: 400,
        code: "bad_request",
        message: `Type mismatch: variable '${variable.name}' expects ${type}, but got ${got} type`,
      });
      expect(await stored(variable.id)).toEqual(variable);
    },
  );

  it("refuses every value for a stored type it does not know (a newer version's) with 400, not 500", async () => {
    const variable = await newVariable("date" as VariableType, "2026-11-24");
    const response = await put(variable.id, { value: "2026-11-25", user: "alice" });
    expect(response.body).toEqual({
      status: 400,
      code: "bad_request",
      message: `Type mismatch: variable '${variable.name}' expects date, but got string type`,
    });
    expect(await stored(variable.id)).toEqual(variable);
  });

  it.each<AppMode>(["workflow", "completion", "agent"])(
    "answers 400 not_chat_app for a %s app, before it checks the value and the user",
    async (mode) => {
      for (const body of [
        { value: "x", user: "alice" },
        {},
        { value: "x" },
        { user: "alice" },
        { user: "" },
      ]) {
        const response = await put(world.variable.id, body, world.apps[mode].key);
        expect(response.body).toEqual({
          status: 400,
          code: "not_chat_app",
          message: "Please check if your app mode matches the right API route.",
        });
      }
    },
  );

  it("asks a chat app's request for its user, then its value, in the API's words", async () => {
    for (const body of [{}, { value: "x" }, { value: "x", user: "" }, { value: "x", user: 7 }]) {
      expect((await put(world.variable.id, body)).body).toEqual({
        status: 400,
        code: "invalid_param",
        message: "user is required and must be a non-empty string.",
      });
    }
    expect((await put(world.variable.id, { user: "alice" })).body).toEqual({
      status: 400,
      code: "invalid_param",
      message: "value is required.",
    });
  });

  it.each<AppMode>(["chat", "agent-chat"])("serves %s apps too", async (mode) => {
    const response = await put(world.variable.id, { value: "x", user: "alice" }, world.apps[mode].key);
    expect(response.body).toMatchObject({ code: "not_found", message: "Conversation Not Exists." });
  });

  it("hides another end user's conversation, and one of an unknown user", async () => {
    for (const user of ["bob", "mallory"]) {
      const response = await put(world.variable.id, { value: "stolen", user });
      expect(response.body).toEqual({ status: 404, code: "not_found", message: "Conversation Not Exists." });
    }
    expect((await stored(world.variable.id))?.value).not.toBe("stolen");
  });

  it("answers 404 for a missing conversation or variable", async () => {
    const missingConversation = await put(
      world.variable.id,
      { value: "x", user: "alice" },
      undefined,
      crypto.randomUUID(),
    );
    expect(missingConversation.body).toEqual({
      status: 404,
      code: "not_found",
      message: "Conversation Not Exists.",
    });
    const missingVariable = await put(crypto.randomUUID(), { value: "x", user: "alice" });
    expect(missingVariable.body).toEqual({
      status: 404,
      code: "not_found",
      message: "Conversation Variable Not Exists.",
    });
  });

  it.each([
    [{ value: "x" }, "user"],
    [{ value: "x", user: "" }, "user"],
    [{ value: "x", user: 7 }, "user"],
    [{ user: "alice" }, "value"],
  ])("answers 400 invalid_param for %j, naming %s", async (body, field) => {
    const response = await put(world.variable.id, body);
    expect(response.status).toBe(400);
    expect(response.body.code).toBe("invalid_param");
    expect(response.body.message).toContain(field);
  });

  it("refuses a value over 200 KB with invalid_param", async () => {
    const response = await put(world.variable.id, { value: "x".repeat(210 * 1024), user: "alice" });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe("invalid_param");
  });
});
