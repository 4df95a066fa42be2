import type { AppInput } from "../format/import-file-schema.js";
import { heldElsewhere, type WriteContext } from "./write-context.js";

type ConversationInput = AppInput["conversations"][number];

export async function writeConversation(
  conversation: ConversationInput,
  appId: string,
  at: string,
  context: WriteContext,
): Promise<void> {
  const { repositories, ids, summary, refuse } = context;
  const endUser = (await repositories.endUsers.findBySessionId(appId, conversation.user)) ?? {
    id: ids.derive("end-user", appId, conversation.user),
    appId,
    sessionId: conversation.user,
  };
  if (await repositories.endUsers.save(endUser)) {
    refuse(`${at}.user`, heldElsewhere(endUser.id, "another app's end user"));
    return;
  }
  const conversationId = conversation.id!;
  const refused = await repositories.conversations.save({
    id: conversationId,
    appId,
    endUserId: endUser.id,
    isDeleted: conversation.is_deleted,
  });
  if (refused) {
    refuse(at, heldElsewhere(conversationId, "another app's conversation"));
    return;
  }
  summary.conversations += 1;
  if (conversation.variables.length > 0) await writeVariables(conversation, at, context);
}

/**
 * Saves the conversation's variables. A name a stored variable the file does not list holds is
 * refused: a conversation's variable names are unique (the file's own repeats are `checkFile`'s),
 * and a file may swap or rename the variables it lists.
 */
async function writeVariables(
  conversation: ConversationInput,
  at: string,
  context: WriteContext,
): Promise<void> {
  const { repositories, clock, refuse } = context;
  const conversationId = conversation.id!;
  const stored = new Map(
    (await repositories.conversations.listVariables(conversationId)).map((variable) => [
      variable.id,
      variable,
    ]),
  );
  const listed = new Set(conversation.variables.map((variable) => variable.id!));
  const namesKept = new Set(
    [...stored.values()].filter((kept) => !listed.has(kept.id)).map((kept) => kept.name),
  );
  for (const [index, variable] of conversation.variables.entries()) {
    if (namesKept.has(variable.name)) {
      const name = JSON.stringify(variable.name);
      refuse(`${at}.variables[${index}].name`, `another variable of this conversation is named ${name}`);
      continue;
    }
    const before = stored.get(variable.id!);
    const unchanged = before !== undefined && JSON.stringify(before.value) === JSON.stringify(variable.value);
    await repositories.conversations.saveVariable({
      id: variable.id!,
      conversationId,
      name: variable.name,
      valueType: variable.value_type,
      value: variable.value,
      description: variable.description,
      createdAt: variable.created_at ?? before?.createdAt ?? clock.nowSeconds(),
      updatedAt: variable.updated_at ?? (unchanged ? before.updatedAt : clock.nowSeconds()),
    });
  }
}
