import { aConversation, anApp, anEndUser, aVariable, aWorkspace } from "@service-api/ports/testing";
import { describe, expect, it } from "vitest";
import { loose, NO_INPUT, NOT_INPUTS, NUL } from "../test-support/loose-input.js";
import { createWorld } from "../test-support/world.js";
import { ListConversationVariables } from "./list-conversation-variables.js";
import { UpdateConversationVariable } from "./update-conversation-variable.js";

async function setup() {
  const world = createWorld({ refusingUnstorableText: true });
  const workspace = aWorkspace();
  await world.workspaces.save(workspace);
  const app = anApp(workspace.id, { mode: "chat" });
  await world.apps.save(app);
  const endUser = anEndUser(app.id, { sessionId: "alice" });
  await world.endUsers.save(endUser);
  const conversation = aConversation(app.id, endUser.id);
  await world.conversations.save(conversation);
  const variable = aVariable(conversation.id, { valueType: "object", value: { a: 1 } });
  await world.conversations.saveVariable(variable);
  return {
    world,
    app,
    update: new UpdateConversationVariable(world.conversations, world.clock),
    list: new ListConversationVariables(world.conversations),
    updateInput: {
      app,
      conversationId: conversation.id,
      variableId: variable.id,
      user: "alice",
      value: { a: 2 },
    },
    listInput: {
      app,
      conversationId: conversation.id,
      user: "alice",
      limit: undefined,
      variableName: undefined,
      lastId: undefined,
    },
  };
}

const NOT_AN_APP = { code: "invalid_param", message: "app: must be the app an app key grants." };

describe("conversation use cases called with input their types do not allow", () => {
  it("refuse a call given no input object with invalid_param, writing nothing", async () => {
    const { world, update, list } = await setup();
    const before = world.contents();
    for (const use of [update, list]) {
      for (const input of NOT_INPUTS) await expect(use.execute(loose(input))).rejects.toMatchObject(NO_INPUT);
    }
    expect(world.contents()).toEqual(before);
  });

  it("refuse a missing app, or one whose ids can name nothing, before anything is read or written", async () => {
    const { world, app, update, list, updateInput, listInput } = await setup();
    const before = world.contents();
    for (const bad of [undefined, null, { ...app, id: NUL }, { ...app, mode: "bogus" }]) {
      await expect(update.execute(loose({ ...updateInput, app: bad }))).rejects.toMatchObject(NOT_AN_APP);
      await expect(list.execute(loose({ ...listInput, app: bad }))).rejects.toMatchObject(NOT_AN_APP);
    }
    expect(world.contents()).toEqual(before);
  });

  it("answer a conversation or variable whose id can name nothing as not found, in the reference's order", async () => {
    const { world, update, list, updateInput, listInput } = await setup();
    const before = world.contents();
    const noConversation = { code: "not_found", message: "Conversation Not Exists." };
    await expect(update.execute({ ...updateInput, conversationId: NUL })).rejects.toMatchObject(
      noConversation,
    );
    await expect(update.execute({ ...updateInput, variableId: NUL })).rejects.toMatchObject({
      code: "not_found",
      message: "Conversation Variable Not Exists.",
    });
    await expect(list.execute({ ...listInput, conversationId: NUL })).rejects.toMatchObject(noConversation);
    await expect(list.execute({ ...listInput, lastId: NUL })).rejects.toMatchObject({
      code: "invalid_param",
      message: "last_id: Conversation Variable Not Exists.",
    });
    expect(world.contents()).toEqual(before);
  });

  it("refuse a value parsing JSON could not give, and a user or name filter that is not text", async () => {
    const { world, update, list, updateInput, listInput } = await setup();
    const before = world.contents();
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    for (const value of [cycle, { a: 1n }, { at: new Date(0) }]) {
      await expect(update.execute({ ...updateInput, value })).rejects.toMatchObject({
        code: "invalid_param",
        message: "value must be a JSON value, nested at most 64 levels deep.",
      });
    }
    await expect(list.execute(loose({ ...listInput, user: 42 }))).rejects.toMatchObject({
      code: "invalid_param",
      message: "user is required and must be a non-empty string.",
    });
    await expect(list.execute(loose({ ...listInput, variableName: 5 }))).rejects.toMatchObject({
      code: "invalid_param",
      message: "variable_name: must be a string.",
    });
    expect(world.contents()).toEqual(before);
  });
});
