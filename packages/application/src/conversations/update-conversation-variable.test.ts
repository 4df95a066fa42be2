import type { AppMode } from "@service-api/domain";
import { aConversation, anApp, anEndUser, aVariable, aWorkspace } from "@service-api/ports/testing";
import { describe, expect, it, vi } from "vitest";
import { createWorld } from "../test-support/world.js";
import { UpdateConversationVariable } from "./update-conversation-variable.js";

async function setup(mode: AppMode = "advanced-chat") {
  const world = createWorld();
  const workspace = aWorkspace();
  await world.workspaces.save(workspace);
  const app = anApp(workspace.id, { mode });
  await world.apps.save(app);
  const endUser = anEndUser(app.id, { sessionId: "alice" });
  const stranger = anEndUser(app.id, { sessionId: "bob" });
  await world.endUsers.save(endUser);
  await world.endUsers.save(stranger);
  const conversation = aConversation(app.id, endUser.id);
  await world.conversations.save(conversation);
  const variable = aVariable(conversation.id, { valueType: "number", value: 1, name: "count" });
  await world.conversations.saveVariable(variable);
  const update = new UpdateConversationVariable(world.conversations, world.clock);
  const input = { app, conversationId: conversation.id, variableId: variable.id, user: "alice", value: 2 };
  const stored = () => world.conversations.findVariable(conversation.id, variable.id);
  return { world, app, conversation, variable, update, input, stored };
}

describe("UpdateConversationVariable", () => {
  it("stores the new value with a fresh update time", async () => {
    const { world, update, input, variable, stored } = await setup();
    const result = await update.execute(input);
    expect(result).toEqual({ ...variable, value: 2, updatedAt: world.clock.now });
    expect(await stored()).toEqual(result);
  });

  it("decides from the reads when the checked write refuses, and writes again, checked, if they allow it", async () => {
    const { world, update, input, variable, stored } = await setup();
    // As if the conversation changed between the checked write and the reads.
    vi.spyOn(world.conversations, "updateVariableValueIfAllowed").mockResolvedValueOnce(undefined);
    const result = await update.execute(input);
    expect(result).toEqual({ ...variable, value: 2, updatedAt: world.clock.now });
    expect(await stored()).toEqual(result);
  });

  it("refuses a value of another type with the mismatch message, writing nothing", async () => {
    const { update, input, variable, stored } = await setup();
    await expect(update.execute({ ...input, value: "2" })).rejects.toMatchObject({
      code: "bad_request",
      message: "Type mismatch: variable 'count' expects number, but got string type",
    });
    expect(await stored()).toEqual(variable);
  });

  it("checks the app mode before the body", async () => {
    const { update, input } = await setup("workflow");
    await expect(update.execute({ ...input, user: undefined })).rejects.toMatchObject({
      code: "not_chat_app",
    });
  });

  it("hides another end user's conversation", async () => {
    const { update, input, variable, stored } = await setup();
    for (const user of ["bob", "nobody"]) {
      await expect(update.execute({ ...input, user })).rejects.toMatchObject({
        code: "not_found",
        message: "Conversation Not Exists.",
      });
    }
    expect(await stored()).toEqual(variable);
  });

  it("hides deleted conversations and other apps' conversations", async () => {
    const { world, update, input, conversation } = await setup();
    const other = anApp(input.app.workspaceId);
    await expect(update.execute({ ...input, app: other })).rejects.toMatchObject({
      message: "Conversation Not Exists.",
    });
    await world.conversations.save({ ...conversation, isDeleted: true });
    await expect(update.execute(input)).rejects.toMatchObject({ message: "Conversation Not Exists." });
  });

  it("finds no end user for a user string no store can hold, even where one was kept", async () => {
    const { world, update, input, variable, stored } = await setup();
    const nul = anEndUser(input.app.id, { sessionId: "ali\u0000ce" });
    await world.endUsers.save(nul);
    await world.conversations.save({
      ...(await world.conversations.findInApp(input.app.id, input.conversationId))!,
      endUserId: nul.id,
    });
    await expect(update.execute({ ...input, user: "ali\u0000ce" })).rejects.toMatchObject({
      code: "not_found",
      message: "Conversation Not Exists.",
    });
    expect(await stored()).toEqual(variable);
  });

  it("reports a missing variable", async () => {
    const { update, input } = await setup();
    await expect(update.execute({ ...input, variableId: "missing" })).rejects.toMatchObject({
      code: "not_found",
      message: "Conversation Variable Not Exists.",
    });
  });

  it("requires the user and the value", async () => {
    const { update, input } = await setup();
    await expect(update.execute({ ...input, user: "" })).rejects.toMatchObject({
      code: "invalid_param",
      field: "user",
    });
    await expect(update.execute({ ...input, value: undefined })).rejects.toMatchObject({
      code: "invalid_param",
      field: "value",
    });
  });
});
