import type { AppMode, ConversationVariable } from "@service-api/domain";
import { aConversation, anEndUser, aVariable } from "@service-api/ports/testing";
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

const NOT_CHAT_APP = {
  status: 400,
  code: "not_chat_app",
  message: "Please check if your app mode matches the right API route.",
};
const USER_REQUIRED = {
  status: 400,
  code: "invalid_param",
  message: "user is required and must be a non-empty string.",
};
const BAD_LIMIT = { status: 400, code: "invalid_param", message: "limit: must be an integer from 1 to 100." };
const LONG_NAME = {
  status: 400,
  code: "invalid_param",
  message: "variable_name: must be at most 255 characters.",
};
const NO_CONVERSATION = { status: 404, code: "not_found", message: "Conversation Not Exists." };
const NO_LAST = { status: 400, code: "invalid_param", message: "last_id: Conversation Variable Not Exists." };

/** GET the variables with these query parameters (encoded here), by the advanced-chat app's key. */
const list = (
  conversationId: string,
  query: Record<string, string> | string = {},
  token = world.apps["advanced-chat"].key,
) => {
  const search = typeof query === "string" ? query : new URLSearchParams(query).toString();
  return call(server.url, "GET", `/v1/conversations/${conversationId}/variables?${search}`, { token });
};

/** Ids sharing one random prefix, ordered by `n`: `idOf(1) < idOf(2)` as strings. */
function idMaker() {
  const prefix = crypto.randomUUID().slice(0, 24);
  return (n: number) => `${prefix}${n.toString(16).padStart(12, "0")}`;
}

/** A new conversation of alice's (in the advanced-chat app unless told) holding these variables. */
async function conversationWith(
  variables: Partial<ConversationVariable>[],
  owner: { appId: string; endUserId: string } = {
    appId: world.apps["advanced-chat"].id,
    endUserId: world.endUser.id,
  },
) {
  const { conversations } = server.store.repositories;
  const conversation = aConversation(owner.appId, owner.endUserId);
  await conversations.save(conversation);
  const saved: ConversationVariable[] = [];
  for (const over of variables) {
    const variable = aVariable(conversation.id, over);
    await conversations.saveVariable(variable);
    saved.push(variable);
  }
  return { conversation, variables: saved };
}

/** The variable as the list shows it, its value given as the expected text. */
const shown = (variable: ConversationVariable, value: string) => ({
  id: variable.id,
  name: variable.name,
  value_type: variable.valueType,
  value,
  description: variable.description,
  created_at: variable.createdAt,
  updated_at: variable.updatedAt,
});

const idsOf = (body: { data: { id: string }[] }) => body.data.map((item) => item.id);

describe("GET /v1/conversations/{conversation_id}/variables", () => {
  it("answers {limit, has_more, data} with every field of each variable, its value as text", async () => {
    const { conversation, variables } = await conversationWith([
      { name: "drink", valueType: "string", value: "tea", createdAt: 10, updatedAt: 11 },
      { name: "pin", valueType: "secret", value: "s3cr3t", createdAt: 20, updatedAt: 21 },
      { name: "count", valueType: "number", value: 42, createdAt: 30, updatedAt: 31 },
      { name: "ratio", valueType: "number", value: -1.5, createdAt: 40, updatedAt: 41 },
      { name: "vip", valueType: "boolean", value: true, createdAt: 50, updatedAt: 51 },
      { name: "profile", valueType: "object", value: { a: 1, b: [true] }, createdAt: 60, updatedAt: 61 },
      { name: "tags", valueType: "array[string]", value: ["x", "y"], createdAt: 70, updatedAt: 71 },
      { name: "numeric_text", valueType: "string", value: "42", createdAt: 80, updatedAt: 81 },
      { name: "mixed", valueType: "array[any]", value: [1, "a", null], createdAt: 90, updatedAt: 91 },
    ]);
    const texts = [
      "tea",
      "s3cr3t",
      "42",
      "-1.5",
      "true",
      '{"a":1,"b":[true]}',
      '["x","y"]',
      "42",
      '[1,"a",null]',
    ];
    const response = await list(conversation.id, { user: "alice" });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      limit: 20,
      has_more: false,
      data: variables.map((variable, index) => shown(variable, texts[index]!)),
    });
  });

  it("shows a value exactly as the PUT answered it", async () => {
    const { conversation, variables } = await conversationWith([
      { name: "settings", valueType: "object", value: {}, createdAt: 1 },
      { name: "scores", valueType: "array[number]", value: [], createdAt: 2 },
    ]);
    const puts = [];
    for (const [variable, value] of [
      [variables[0]!, { a: { b: [1, "two", null] } }],
      [variables[1]!, [1, 2.5, -3]],
    ] as const) {
      const put = await call(
        server.url,
        "PUT",
        `/v1/conversations/${conversation.id}/variables/${variable.id}`,
        { token: world.apps["advanced-chat"].key, body: { value, user: "alice" } },
      );
      expect(put.status).toBe(200);
      puts.push(put.body);
    }
    const response = await list(conversation.id, { user: "alice" });
    expect(response.body.data).toEqual(puts);
  });

  it("orders by created_at ascending, then by id, whatever the insertion order", async () => {
    const idOf = idMaker();
    const { conversation } = await conversationWith([
      { id: idOf(3), name: "c", createdAt: 100 },
      { id: idOf(9), name: "first", createdAt: 50 },
      { id: idOf(0), name: "last", createdAt: 200 },
      { id: idOf(1), name: "a", createdAt: 100 },
      { id: idOf(2), name: "b", createdAt: 100 },
    ]);
    const response = await list(conversation.id, { user: "alice" });
    expect(idsOf(response.body)).toEqual([idOf(9), idOf(1), idOf(2), idOf(3), idOf(0)]);
    expect(response.body.data.map((item: { name: string }) => item.name)).toEqual([
      "first",
      "a",
      "b",
      "c",
      "last",
    ]);
  });

  describe("paging with limit and last_id", () => {
    const idOf = idMaker();
    let conversationId: string;
    beforeAll(async () => {
      // In order: 9 (50), 1, 2, 3 (all three in second 100), 0 (200).
      const { conversation } = await conversationWith([
        { id: idOf(3), name: "c", createdAt: 100 },
        { id: idOf(9), name: "first", createdAt: 50 },
        { id: idOf(0), name: "last", createdAt: 200 },
        { id: idOf(1), name: "a", createdAt: 100 },
        { id: idOf(2), name: "b", createdAt: 100 },
      ]);
      conversationId = conversation.id;
    });

    it("walks every variable once, page after page, through variables of the same second", async () => {
      const pages: { ids: string[]; has_more: boolean; limit: number }[] = [];
      let lastId = "";
      for (let round = 0; round < 5; round++) {
        const response = await list(conversationId, { user: "alice", limit: "2", last_id: lastId });
        expect(response.status).toBe(200);
        pages.push({
          ids: idsOf(response.body),
          has_more: response.body.has_more,
          limit: response.body.limit,
        });
        if (!response.body.has_more) break;
        lastId = response.body.data.at(-1).id;
      }
      expect(pages).toEqual([
        { ids: [idOf(9), idOf(1)], has_more: true, limit: 2 },
        { ids: [idOf(2), idOf(3)], has_more: true, limit: 2 },
        { ids: [idOf(0)], has_more: false, limit: 2 },
      ]);
    });

    it("reads last_id in any case", async () => {
      const upper = await list(conversationId, { user: "alice", limit: "3", last_id: idOf(1).toUpperCase() });
      expect(upper.status).toBe(200);
      expect(idsOf(upper.body)).toEqual([idOf(2), idOf(3), idOf(0)]);
    });

    it("starts strictly after last_id, and says has_more false on a page that ends exactly at the last one", async () => {
      const afterA = await list(conversationId, { user: "alice", limit: "3", last_id: idOf(1) });
      expect(idsOf(afterA.body)).toEqual([idOf(2), idOf(3), idOf(0)]);
      expect(afterA.body.has_more).toBe(false);
      const afterB = await list(conversationId, { user: "alice", limit: "1", last_id: idOf(2) });
      expect(idsOf(afterB.body)).toEqual([idOf(3)]);
      expect(afterB.body.has_more).toBe(true);
    });

    it("answers an empty last page after the newest variable", async () => {
      const response = await list(conversationId, { user: "alice", last_id: idOf(0) });
      expect(response.body).toEqual({ limit: 20, has_more: false, data: [] });
    });

    it("reads an empty last_id as the start", async () => {
      const empty = await list(conversationId, { user: "alice", last_id: "", limit: "1" });
      expect(idsOf(empty.body)).toEqual([idOf(9)]);
      expect(empty.body.has_more).toBe(true);
    });

    it("defaults limit to 20 and echoes the limit it applied", async () => {
      for (const [limit, expected] of [
        [undefined, 20],
        ["", 20],
        ["1", 1],
        ["100", 100],
        ["007", 7],
      ] as const) {
        const response = await list(
          conversationId,
          limit === undefined ? { user: "alice" } : { user: "alice", limit },
        );
        expect(response.status).toBe(200);
        expect(response.body.limit).toBe(expected);
        expect(response.body.data).toHaveLength(Math.min(expected, 5));
      }
    });

    it("counts a repeated parameter by its first value", async () => {
      const response = await list(conversationId, "user=alice&user=bob&limit=1&limit=500");
      expect(response.status).toBe(200);
      expect(response.body.limit).toBe(1);
      expect(idsOf(response.body)).toEqual([idOf(9)]);
    });
  });

  describe("variable_name", () => {
    let conversationId: string;
    const NAMES = [
      "exp_date",
      "expxdate",
      "Expiry",
      "100%",
      "1000",
      "back\\slash",
      "backxslash",
      "café",
      "CAFÉ",
    ];
    beforeAll(async () => {
      const { conversation } = await conversationWith(
        NAMES.map((name, index) => ({ name, createdAt: 1_000 + index })),
      );
      conversationId = conversation.id;
    });

    it.each([
      ["p_d", ["exp_date"]],
      ["pxd", ["expxdate"]],
      ["EXP", ["exp_date", "expxdate", "Expiry"]],
      ["xPiR", ["Expiry"]],
      ["%", ["100%"]],
      ["0%", ["100%"]],
      ["\\", ["back\\slash"]],
      ["k\\s", ["back\\slash"]],
      ["café", ["café"]],
      ["CAFé", ["café"]],
      ["cafÉ", ["CAFÉ"]],
      ["nothing", []],
    ])("matches %j as a literal substring, ASCII letters in either case: %j", async (filter, names) => {
      const response = await list(conversationId, { user: "alice", variable_name: filter });
      expect(response.status).toBe(200);
      expect(response.body.data.map((item: { name: string }) => item.name)).toEqual(names);
      expect(response.body.has_more).toBe(false);
    });

    it("reads an empty variable_name as no filter", async () => {
      const response = await list(conversationId, { user: "alice", variable_name: "" });
      expect(response.body.data.map((item: { name: string }) => item.name)).toEqual(NAMES);
    });

    it("pages the filtered list: has_more counts only matches, and last_id may be a variable the filter skips", async () => {
      const idOf = idMaker();
      const { conversation } = await conversationWith([
        { id: idOf(1), name: "alpha_1", createdAt: 10 },
        { id: idOf(2), name: "beta", createdAt: 10 },
        { id: idOf(3), name: "alpha_2", createdAt: 10 },
        { id: idOf(4), name: "gamma", createdAt: 11 },
      ]);
      const first = await list(conversation.id, { user: "alice", variable_name: "ALPHA", limit: "1" });
      expect(first.body).toMatchObject({ limit: 1, has_more: true });
      expect(idsOf(first.body)).toEqual([idOf(1)]);
      const second = await list(conversation.id, {
        user: "alice",
        variable_name: "ALPHA",
        limit: "1",
        last_id: idOf(1),
      });
      expect(second.body).toMatchObject({ limit: 1, has_more: false });
      expect(idsOf(second.body)).toEqual([idOf(3)]);
      const afterSkipped = await list(conversation.id, {
        user: "alice",
        variable_name: "alpha",
        last_id: idOf(2),
      });
      expect(idsOf(afterSkipped.body)).toEqual([idOf(3)]);
    });

    it("takes 255 code points, emoji counting one each, and refuses 256", async () => {
      const emoji = await list(conversationId, { user: "alice", variable_name: "😀".repeat(255) });
      expect(emoji.body).toEqual({ limit: 20, has_more: false, data: [] });
      for (const name of ["😀".repeat(256), "a".repeat(256)]) {
        const response = await list(conversationId, { user: "alice", variable_name: name });
        expect(response.body).toEqual(LONG_NAME);
      }
    });
  });

  describe("app mode", () => {
    it.each<AppMode>(["agent", "workflow", "completion"])(
      "refuses a %s app with 400 not_chat_app before any other check",
      async (mode) => {
        const response = await list(
          world.conversation.id,
          { limit: "0", last_id: "nope", variable_name: "x".repeat(300) },
          world.apps[mode].key,
        );
        expect(response.body).toEqual(NOT_CHAT_APP);
        const withUser = await list(world.conversation.id, { user: "alice" }, world.apps[mode].key);
        expect(withUser.body).toEqual(NOT_CHAT_APP);
      },
    );

    it.each<AppMode>(["chat", "agent-chat", "advanced-chat"])(
      "lists the variables of a %s app's conversation",
      async (mode) => {
        const app = world.apps[mode];
        const endUser = anEndUser(app.id, { sessionId: `owner-of-${mode}` });
        await server.store.repositories.endUsers.save(endUser);
        const { conversation, variables } = await conversationWith(
          [{ name: "topic", valueType: "string", value: mode }],
          { appId: app.id, endUserId: endUser.id },
        );
        const response = await list(conversation.id, { user: endUser.sessionId }, app.key);
        expect(response.body).toEqual({ limit: 20, has_more: false, data: [shown(variables[0]!, mode)] });
      },
    );
  });

  describe("order of checks", () => {
    it("requires a non-empty user after the app mode, before limit", async () => {
      const queries: Record<string, string>[] = [
        {},
        { user: "" },
        { user: "", limit: "0", variable_name: "x".repeat(256) },
      ];
      for (const query of queries) {
        const response = await list(world.conversation.id, query);
        expect(response.body).toEqual(USER_REQUIRED);
      }
    });

    it.each(["0", "101", "-1", "+1", "1.0", " 1", "1 ", "abc", "1e1", "0x10", "١"])(
      "refuses limit=%j with the limit message",
      async (limit) => {
        const response = await list(world.conversation.id, { user: "alice", limit });
        expect(response.body).toEqual(BAD_LIMIT);
      },
    );

    it("checks limit before variable_name, and variable_name before the conversation", async () => {
      const both = await list(crypto.randomUUID(), {
        user: "mallory",
        limit: "0",
        variable_name: "x".repeat(256),
      });
      expect(both.body).toEqual(BAD_LIMIT);
      const name = await list(crypto.randomUUID(), { user: "mallory", variable_name: "x".repeat(256) });
      expect(name.body).toEqual(LONG_NAME);
    });

    it("checks the conversation before last_id", async () => {
      const response = await list(crypto.randomUUID(), { user: "alice", last_id: "not-a-variable" });
      expect(response.body).toEqual(NO_CONVERSATION);
    });
  });

  describe("the conversation", () => {
    it("is found by the owner, with its id in any case", async () => {
      const response = await list(world.conversation.id.toUpperCase(), { user: "alice" });
      expect(response.body).toEqual({ limit: 20, has_more: false, data: [shown(world.variable, "tea")] });
    });

    it("is hidden from another end user of the app", async () => {
      expect((await list(world.conversation.id, { user: "bob" })).body).toEqual(NO_CONVERSATION);
      expect((await list(world.conversation.id, { user: "ALICE" })).body).toEqual(NO_CONVERSATION);
    });

    it("is hidden from an unknown user, and the read creates no end user", async () => {
      const { endUsers } = server.store.repositories;
      const response = await list(world.conversation.id, { user: "mallory" });
      expect(response.body).toEqual(NO_CONVERSATION);
      expect(await endUsers.findBySessionId(world.apps["advanced-chat"].id, "mallory")).toBeUndefined();
      const chat = await list(crypto.randomUUID(), { user: "nobody-yet" }, world.apps.chat.key);
      expect(chat.body).toEqual(NO_CONVERSATION);
      expect(await endUsers.findBySessionId(world.apps.chat.id, "nobody-yet")).toBeUndefined();
    });

    it("is hidden once deleted", async () => {
      const { conversations } = server.store.repositories;
      const { conversation } = await conversationWith([{ name: "gone" }]);
      await conversations.save({ ...conversation, isDeleted: true });
      expect((await list(conversation.id, { user: "alice" })).body).toEqual(NO_CONVERSATION);
    });

    it("is hidden from another app of the workspace, even for a user of the same name there", async () => {
      await server.store.repositories.endUsers.save(anEndUser(world.apps.chat.id, { sessionId: "alice" }));
      const response = await list(world.conversation.id, { user: "alice" }, world.apps.chat.key);
      expect(response.body).toEqual(NO_CONVERSATION);
    });

    it("answers 404 for an unknown id or one that is not a UUID", async () => {
      for (const id of [crypto.randomUUID(), "not-a-uuid", "1"]) {
        expect((await list(id, { user: "alice" })).body).toEqual(NO_CONVERSATION);
      }
    });
  });

  describe("last_id", () => {
    it("must name a variable of this conversation, UUID or not", async () => {
      const { variables: others } = await conversationWith([{ name: "elsewhere" }]);
      for (const lastId of [crypto.randomUUID(), "not-a-uuid", "42", others[0]!.id]) {
        const response = await list(world.conversation.id, { user: "alice", last_id: lastId });
        expect(response.body).toEqual(NO_LAST);
      }
    });
  });

  it("answers 401 without a key or with a knowledge key", async () => {
    const none = await call(
      server.url,
      "GET",
      `/v1/conversations/${world.conversation.id}/variables?user=alice`,
    );
    expect(none.body).toEqual({
      status: 401,
      code: "unauthorized",
      message: "Authorization header must be provided and start with 'Bearer'",
    });
    const knowledge = await list(world.conversation.id, { user: "alice" }, world.datasetKey);
    expect(knowledge.body).toEqual({ status: 401, code: "unauthorized", message: "Access token is invalid" });
  });
});
