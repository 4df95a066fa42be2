import { parseArgs } from "node:util";
import { APP_MODES, type AppMode } from "@service-api/domain";
import type { Command } from "../command.js";
import { type CommandIo, EXIT, line, UsageError } from "../io.js";
import { withAdmin } from "../runtime.js";
import { storedId } from "../stored-id.js";

const HELP = `Usage: service-api apps create --workspace <id> --name <name> --mode <mode> [--json]

Creates an app of the workspace, its API on, created by the workspace's owner, with default web
app settings titled with its name. Prints the app's id alone (with --json, the app), for
service-api keys create --app <id>. Modes: ${Object.keys(APP_MODES).join(", ")}.
Names are as given, 1 to 255 characters and not blank.
Exit codes: 0 done, 1 no such workspace, or a name or mode refused, 2 wrong usage.`;

export const appsCommand: Command = {
  name: "apps",
  summary: "Create an app (for an app key)",
  help: HELP,
  async run(args, io) {
    const [action, ...rest] = args;
    if (action === "create") return create(rest, io);
    throw new UsageError(action ? `apps has no action "${action}".` : "apps needs an action.");
  },
};

async function create(args: string[], io: CommandIo): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      workspace: { type: "string" },
      name: { type: "string" },
      mode: { type: "string" },
      json: { type: "boolean", default: false },
    },
  });
  const { workspace, name, mode } = values;
  if (workspace === undefined || name === undefined || mode === undefined)
    throw new UsageError("apps create needs --workspace <id>, --name <name> and --mode <mode>.");
  // The mode is checked by the use case, with the rest.
  const app = await withAdmin(io, (admin) =>
    admin.createApp.execute({ workspaceId: storedId(workspace), name, mode: mode as AppMode }),
  );
  line(io.stdout, values.json ? JSON.stringify(app, null, 2) : app.id);
  line(io.stderr, `Created ${app.mode} app ${app.id} in workspace ${app.workspaceId}.`);
  return EXIT.ok;
}
