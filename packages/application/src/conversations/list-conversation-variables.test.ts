import type { AppMode } from "@service-api/domain";
import { aConversation, anApp, anEndUser, aVariable, aWorkspace } from "@service-api/ports/testing";
import { describe, expect, it } from "vitest";
import { createWorld } from "../test-support/world.js";
import { ListConversationVariables } from "./list-conversation-variables.js";

async function setup(mode: AppMode = "chat") {
  const world = createWorld();
  const workspace = aWorkspace();
  await world.workspaces.save(workspace);
  const app = anApp(workspace.id, { mode });
  await world.apps.save(app);
  const endUser = anEndUser(app.id, { sessionId: "alice" });
  await world.endUsers.save(endUser);
  await world.endUsers.save(anEndUser(app.id, { sessionId: "bob" }));
  const conversation = aConversation(app.id, endUser.id);
  await world.conversations.save(conversation);
  const variables = ["topic", "mood", "exp_date"].map((name, index) =>
    aVariable(conversation.id, { name, createdAt: 10 + index }),
  );
  for (const variable of variables) await world.conversations.saveVariable(variable);
  const list = new ListConversationVariables(world.conversations);
  const input = {
    app,
    conversationId: conversation.id,
    user: "alice" as string | undefined,
    limit: undefined as string | undefined,
    variableName: undefined as string | undefined,
    lastId: undefined as string | undefined,
  };
  return { world, app, conversation, variables, list, input };
}

describe("ListConversationVariables", () => {
  it("pages oldest first after the last id, saying whether more follow", async () => {
    const { list, input, variables } = await setup();
    const first = await list.execute({ ...input, limit: "2" });
    expect(first).toMatchObject({ limit: 2, hasMore: true });
    expect(first.variables.map((variable) => variable.name)).toEqual(["topic", "mood"]);
    const next = await list.execute({ ...input, limit: "2", lastId: variables[1]!.id });
    expect(next).toMatchObject({ hasMore: false });
    expect(next.variables.map((variable) => variable.name)).toEqual(["exp_date"]);
    expect((await list.execute({ ...input, variableName: "P_D" })).variables.map((v) => v.name)).toEqual([
      "exp_date",
    ]);
  });

  it("checks the app mode, then user, limit, name filter, conversation and cursor, in that order", async () => {
    const { list, input } = await setup();
    const { list: workflowList, input: workflowInput } = await setup("workflow");
    await expect(workflowList.execute({ ...workflowInput, user: undefined })).rejects.toMatchObject({
      code: "not_chat_app",
    });
    await expect(list.execute({ ...input, user: "", limit: "0" })).rejects.toMatchObject({
      message: "user is required and must be a non-empty string.",
    });
    await expect(
      list.execute({ ...input, limit: "101", variableName: "x".repeat(256) }),
    ).rejects.toMatchObject({
      message: "limit: must be an integer from 1 to 100.",
    });
    await expect(
      list.execute({ ...input, variableName: "x".repeat(256), user: "bob" }),
    ).rejects.toMatchObject({
      message: "variable_name: must be at most 255 characters.",
    });
    for (const user of ["bob", "nobody", "ali\u0000ce"]) {
      await expect(list.execute({ ...input, user, lastId: "bad" })).rejects.toMatchObject({
        code: "not_found",
        message: "Conversation Not Exists.",
      });
    }
    await expect(list.execute({ ...input, lastId: "bad" })).rejects.toMatchObject({
      code: "invalid_param",
      message: "last_id: Conversation Variable Not Exists.",
    });
  });
});
