import { parseArgs } from "node:util";
import type { Command } from "../command.js";
import { type CommandIo, EXIT, line, UsageError } from "../io.js";
import { printTable } from "../print-table.js";
import { withAdmin } from "../runtime.js";

const HELP = `Usage: service-api workspaces <create | list> [options]

  workspaces create --name <name> [--owner <name>] [--json]
                       create an empty workspace and its owner member (named Owner unless told);
                       prints the workspace's id alone (with --json, the workspace and its owner)
  workspaces list [--json]
                       list workspaces: id, name, status, datasets, apps

A workspace's datasets, documents and apps are created by its owner. Names are as given, 1 to 255
characters and not blank; they need not be unique. A new workspace has no key yet: issue one with
service-api keys create --workspace <id>. list refuses a DATABASE_URL naming no SQLite file.
Exit codes: 0 done, 1 a name refused or no such database, 2 wrong usage.`;

export const workspacesCommand: Command = {
  name: "workspaces",
  summary: "Create and list workspaces",
  help: HELP,
  async run(args, io) {
    const [action, ...rest] = args;
    if (action === "create") return create(rest, io);
    if (action === "list") return list(rest, io);
    throw new UsageError(action ? `workspaces has no action "${action}".` : "workspaces needs an action.");
  },
};

async function create(args: string[], io: CommandIo): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      name: { type: "string" },
      owner: { type: "string" },
      json: { type: "boolean", default: false },
    },
  });
  const { name, owner: ownerName } = values;
  if (name === undefined) throw new UsageError("workspaces create needs --name <name>.");
  const { workspace, owner } = await withAdmin(io, (admin) =>
    admin.createWorkspace.execute({ name, ownerName }),
  );
  if (values.json) {
    line(io.stdout, JSON.stringify({ ...workspace, owner: { id: owner.id, name: owner.name } }, null, 2));
  } else {
    line(io.stdout, workspace.id);
  }
  line(io.stderr, `Created workspace ${workspace.id}, owned by member ${owner.id} (${owner.name}).`);
  return EXIT.ok;
}

async function list(args: string[], io: CommandIo): Promise<number> {
  const { values } = parseArgs({ args, options: { json: { type: "boolean", default: false } } });
  const summaries = await withAdmin(io, (admin) => admin.listWorkspaces.execute(), {
    existingDatabase: true,
  });
  if (values.json) {
    const shown = summaries.map(({ workspace, datasets, apps }) => ({ ...workspace, datasets, apps }));
    line(io.stdout, JSON.stringify(shown, null, 2));
    return EXIT.ok;
  }
  if (summaries.length === 0) {
    line(io.stderr, "No workspaces.");
    return EXIT.ok;
  }
  printTable(
    io,
    ["ID", "NAME", "STATUS", "DATASETS", "APPS"],
    summaries.map(({ workspace, datasets, apps }) => [
      workspace.id,
      workspace.name,
      workspace.status,
      String(datasets),
      String(apps),
    ]),
  );
  return EXIT.ok;
}
