import { describe, expect, it } from "vitest";
import { aConversation, anApp, anEndUser, aVariable, aWorkspace } from "../fixtures.js";
import { type OpenStore, useStore } from "./use-store.js";

export function describeConversationRepositoryContract(openStore: OpenStore): void {
  describe("ConversationRepository contract", () => {
    const repositories = useStore(openStore);

    async function seed() {
      const { workspaces, apps, endUsers, conversations } = repositories();
      const workspace = aWorkspace();
      await workspaces.save(workspace);
      const [app, other] = [anApp(workspace.id), anApp(workspace.id)];
      await apps.save(app);
      await apps.save(other);
      const endUser = anEndUser(app.id);
      await endUsers.save(endUser);
      const conversation = aConversation(app.id, endUser.id);
      const second = aConversation(app.id, endUser.id, { isDeleted: true });
      await conversations.save(conversation);
      await conversations.save(second);
      return { app, other, endUser, conversation, second };
    }

    it("reads what a variable update checks together: conversation, session's end user, variable", async () => {
      const { conversations, endUsers } = repositories();
      const { app, other, endUser, conversation } = await seed();
      const variable = aVariable(conversation.id, { valueType: "number", value: 3 });
      await conversations.saveVariable(variable);
      const bob = anEndUser(app.id, { sessionId: "bob" });
      await endUsers.save(bob);
      const read = (
        appId: string,
        session: string | null,
        conversationId: string,
        variableId: string | null,
      ) => conversations.findForVariableUpdate(appId, session, conversationId, variableId);

      expect(await read(app.id, endUser.sessionId, conversation.id, variable.id)).toEqual({
        conversation,
        sessionUserId: endUser.id,
        variable,
      });
      expect(await read(app.id, "bob", conversation.id, crypto.randomUUID())).toEqual({
        conversation,
        sessionUserId: bob.id,
        variable: undefined,
      });
      expect(await read(app.id, "nobody", conversation.id, variable.id)).toEqual({
        conversation,
        sessionUserId: undefined,
        variable,
      });
      expect(await read(app.id, null, conversation.id, variable.id)).toEqual({
        conversation,
        sessionUserId: undefined,
        variable,
      });
      expect(await read(app.id, endUser.sessionId, conversation.id, null)).toEqual({
        conversation,
        sessionUserId: endUser.id,
        variable: undefined,
      });
      expect(await read(other.id, endUser.sessionId, conversation.id, variable.id)).toEqual({});
    });

    it("finds a conversation only in its own app, deleted or not", async () => {
      const { conversations } = repositories();
      const { app, other, conversation, second } = await seed();
      expect(await conversations.findInApp(app.id, conversation.id)).toEqual(conversation);
      expect(await conversations.findInApp(app.id, second.id)).toEqual(second);
      expect(await conversations.findInApp(other.id, conversation.id)).toBeUndefined();
    });

    it("keeps variables per conversation even when ids repeat", async () => {
      const { conversations } = repositories();
      const { conversation, second } = await seed();
      const mine = aVariable(conversation.id, { id: "6f1c2b8e-0000-4000-8000-000000000001", value: "a" });
      const theirs = { ...mine, conversationId: second.id, value: "b" };
      await conversations.saveVariable(mine);
      await conversations.saveVariable(theirs);
      expect(await conversations.findVariable(conversation.id, mine.id)).toEqual(mine);
      expect(await conversations.findVariable(second.id, mine.id)).toEqual(theirs);
    });

    it.each([
      ["string", "hello"],
      ["number", 42.5],
      ["boolean", false],
      ["object", { a: 1, nested: { b: [true, null] } }],
      ["array[string]", ["x", "y"]],
      ["array[any]", []],
    ] as const)("stores a %s value with its JSON type", async (valueType, value) => {
      const { conversations } = repositories();
      const { conversation } = await seed();
      const variable = aVariable(conversation.id, { valueType, value });
      await conversations.saveVariable(variable);
      expect((await conversations.findVariable(conversation.id, variable.id))?.value).toEqual(value);
    });

    it("updates a value and its time, leaving the rest", async () => {
      const { conversations } = repositories();
      const { conversation, second } = await seed();
      const variable = aVariable(conversation.id, { valueType: "object", value: { a: 1 } });
      const twin = { ...variable, conversationId: second.id };
      await conversations.saveVariable(variable);
      await conversations.saveVariable(twin);
      const updated = await conversations.updateVariableValue(
        conversation.id,
        variable.id,
        { b: [2] },
        1_800_000_000,
      );
      const expected = { ...variable, value: { b: [2] }, updatedAt: 1_800_000_000 };
      expect(updated).toEqual(expected);
      expect(await conversations.findVariable(conversation.id, variable.id)).toEqual(expected);
      expect(await conversations.findVariable(second.id, variable.id)).toEqual(twin);
    });

    it("updates nothing for a missing variable", async () => {
      const { conversations } = repositories();
      const { conversation } = await seed();
      expect(await conversations.updateVariableValue(conversation.id, "missing", 1, 1)).toBeUndefined();
    });

    it("updates where allowed only: the session's undeleted conversation, a variable of an accepted type", async () => {
      const { conversations, endUsers } = repositories();
      const { app, other, endUser, conversation, second } = await seed();
      const variable = aVariable(conversation.id, { valueType: "string", value: "before" });
      const inDeleted = { ...variable, conversationId: second.id };
      await conversations.saveVariable(variable);
      await conversations.saveVariable(inDeleted);
      const bob = anEndUser(app.id, { sessionId: "bob" });
      await endUsers.save(bob);
      const allowed = {
        appId: app.id,
        sessionId: endUser.sessionId,
        conversationId: conversation.id,
        variableId: variable.id,
        acceptedTypes: ["string", "secret"] as const,
        value: "after",
        updatedAt: 1_800_000_000,
      };
      const refused = [
        { ...allowed, acceptedTypes: ["number"] as const },
        { ...allowed, acceptedTypes: [] },
        { ...allowed, sessionId: "bob" },
        { ...allowed, sessionId: "nobody" },
        { ...allowed, appId: other.id },
        { ...allowed, variableId: crypto.randomUUID() },
        { ...allowed, conversationId: second.id },
      ];
      for (const update of refused) {
        expect(
          await conversations.updateVariableValueIfAllowed(update),
          JSON.stringify(update),
        ).toBeUndefined();
      }
      expect(await conversations.findVariable(conversation.id, variable.id)).toEqual(variable);
      expect(await conversations.findVariable(second.id, variable.id)).toEqual(inDeleted);

      const expected = { ...variable, value: "after", updatedAt: 1_800_000_000 };
      expect(await conversations.updateVariableValueIfAllowed(allowed)).toEqual(expected);
      expect(await conversations.findVariable(conversation.id, variable.id)).toEqual(expected);
      expect(await conversations.findVariable(second.id, variable.id)).toEqual(inDeleted);
    });

    it("ends concurrent updates with one of the values, whole", async () => {
      const { conversations } = repositories();
      const { conversation } = await seed();
      const variable = aVariable(conversation.id, { valueType: "array[number]", value: [] });
      await conversations.saveVariable(variable);
      const values = Array.from({ length: 10 }, (_, index) => Array.from({ length: 50 }, () => index));
      await Promise.all(
        values.map((value, index) =>
          conversations.updateVariableValue(conversation.id, variable.id, value, index),
        ),
      );
      const stored = await conversations.findVariable(conversation.id, variable.id);
      expect(values).toContainEqual(stored?.value);
    });

    it("lists an app's conversations and a conversation's variables", async () => {
      const { conversations } = repositories();
      const { app, other, conversation, second } = await seed();
      expect(await conversations.listInApp(app.id)).toEqual(
        [conversation, second].sort((a, b) => a.id.localeCompare(b.id)),
      );
      expect(await conversations.listInApp(other.id)).toEqual([]);
      const zeta = aVariable(conversation.id, { name: "zeta" });
      const alpha = aVariable(conversation.id, { name: "alpha" });
      await conversations.saveVariable(zeta);
      await conversations.saveVariable(alpha);
      expect(await conversations.listVariables(conversation.id)).toEqual([alpha, zeta]);
      expect(await conversations.listVariables(second.id)).toEqual([]);
    });

    it("never moves a conversation: a save naming another app's conversation writes nothing, answering why", async () => {
      const { conversations } = repositories();
      const { app, other, conversation } = await seed();
      expect(await conversations.save({ ...conversation, isDeleted: true })).toBeUndefined();
      expect(await conversations.save({ ...conversation, appId: other.id, isDeleted: false })).toBe(
        "owned_elsewhere",
      );
      expect(await conversations.findInApp(app.id, conversation.id)).toEqual({
        ...conversation,
        isDeleted: true,
      });
      expect(await conversations.listInApp(other.id)).toEqual([]);
    });
  });
}
