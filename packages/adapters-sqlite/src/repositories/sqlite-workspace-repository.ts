import type { Member, Workspace, WorkspaceStatus } from "@service-api/domain";
import type { WorkspaceRepository } from "@service-api/ports";
import type { Kysely } from "kysely";
import type { DatabaseSchema } from "../schema.js";
import { updateAllBut } from "./rows.js";

export class SqliteWorkspaceRepository implements WorkspaceRepository {
  constructor(private readonly db: Kysely<DatabaseSchema>) {}

  async save(workspace: Workspace): Promise<void> {
    const row = { id: workspace.id, name: workspace.name, status: workspace.status };
    await this.db
      .insertInto("workspaces")
      .values(row)
      .onConflict((conflict) => conflict.column("id").doUpdateSet(updateAllBut(row, "id")))
      .execute();
  }

  async findById(id: string): Promise<Workspace | undefined> {
    const row = await this.db.selectFrom("workspaces").selectAll().where("id", "=", id).executeTakeFirst();
    return row && { id: row.id, name: row.name, status: row.status as WorkspaceStatus };
  }

  async saveMember(member: Member): Promise<void> {
    const row = { id: member.id, workspace_id: member.workspaceId, name: member.name };
    await this.db
      .insertInto("members")
      .values(row)
      .onConflict((conflict) => conflict.column("id").doUpdateSet(updateAllBut(row, "id")))
      .execute();
  }

  async findMember(workspaceId: string, memberId: string): Promise<Member | undefined> {
    const row = await this.db
      .selectFrom("members")
      .selectAll()
      .where("id", "=", memberId)
      .where("workspace_id", "=", workspaceId)
      .executeTakeFirst();
    return row && { id: row.id, workspaceId: row.workspace_id, name: row.name };
  }
}
