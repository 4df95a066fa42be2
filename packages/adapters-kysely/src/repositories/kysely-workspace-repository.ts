import type { Member, MemberRole, Workspace, WorkspaceStatus } from "@service-api/domain";
import type { WorkspaceRepository } from "@service-api/ports";
import { type Kysely, type Selectable, sql } from "kysely";
import { compiledRead } from "../compiled-read.js";
import { TRASH_WORKSPACE_ID } from "../migrations/datasets-by-api.js";
import type { DatabaseSchema, MemberTable, WorkspaceTable } from "../schema.js";
import { saveOwnedRow } from "./owned-rows.js";
import { updateAllBut } from "./rows.js";

const workspaceFromRow = (row: Selectable<WorkspaceTable>): Workspace => ({
  id: row.id,
  name: row.name,
  status: row.status as WorkspaceStatus,
});

const memberFromRow = (row: Selectable<MemberTable>): Member => ({
  id: row.id,
  workspaceId: row.workspace_id,
  name: row.name,
  role: row.role as MemberRole,
});

const workspaceById = compiledRead((db, id: string) =>
  db.selectFrom("workspaces").selectAll().where("id", "=", id),
);
const memberInWorkspace = compiledRead((db, workspaceId: string, memberId: string) =>
  db.selectFrom("members").selectAll().where("id", "=", memberId).where("workspace_id", "=", workspaceId),
);
/** The role written in, so the planner can match the partial index of owners (`members_one_owner`). */
const ownerOf = compiledRead((db, workspaceId: string) =>
  db
    .selectFrom("members")
    .selectAll()
    .where("workspace_id", "=", workspaceId)
    .where("role", "=", sql.lit("owner")),
);

export class KyselyWorkspaceRepository implements WorkspaceRepository {
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
    const [row] = await workspaceById(this.db, id);
    return row && workspaceFromRow(row);
  }

  async list(): Promise<Workspace[]> {
    // Not the trash deleted datasets wait in for their purge: no workspace anyone made.
    const rows = await this.db
      .selectFrom("workspaces")
      .selectAll()
      .where("id", "<>", TRASH_WORKSPACE_ID)
      .orderBy("name")
      .orderBy("id")
      .execute();
    return rows.map(workspaceFromRow);
  }

  async listMembers(workspaceId: string): Promise<Member[]> {
    const rows = await this.db
      .selectFrom("members")
      .selectAll()
      .where("workspace_id", "=", workspaceId)
      .orderBy("name")
      .orderBy("id")
      .execute();
    return rows.map(memberFromRow);
  }

  async saveMember(member: Member): Promise<"owned_elsewhere" | undefined> {
    const row = { id: member.id, workspace_id: member.workspaceId, name: member.name, role: member.role };
    return saveOwnedRow(this.db, "members", row, "workspace_id");
  }

  async findMember(workspaceId: string, memberId: string): Promise<Member | undefined> {
    const [row] = await memberInWorkspace(this.db, workspaceId, memberId);
    return row && memberFromRow(row);
  }

  async findOwner(workspaceId: string): Promise<Member | undefined> {
    const [row] = await ownerOf(this.db, workspaceId);
    return row && memberFromRow(row);
  }
}
