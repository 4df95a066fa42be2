import { parseArgs } from "node:util";
import { type ApiKey, lookupId, NotFoundError } from "@service-api/domain";
import type { Command } from "../command.js";
import { type CommandIo, EXIT, line, UsageError } from "../io.js";
import { printTable } from "../print-table.js";
import { type Admin, withAdmin } from "../runtime.js";
import { storedId } from "../stored-id.js";

const HELP = `Usage: service-api keys <create | list | revoke> [options]

  keys create --app <app id>              issue an app key (app-…)
  keys create --workspace <workspace id>  issue a knowledge key (ds-…) for the workspace's datasets
  keys list [--app <id>] [--workspace <id>] [--json]
                                          list keys: id, kind, owner, prefix, creation, last use
  keys revoke <key id>                    revoke a key; it stops working at once

Ids are UUIDs, taken in any case, as the HTTP API takes them. A new key is printed once, alone
on standard output; only its hash is stored, so it cannot be shown again. Listings never show
keys, only their first characters. list and revoke refuse a DATABASE_URL naming no SQLite file.
Exit codes: 0 done, 1 no such app, workspace, key or database, 2 wrong usage.`;

export const keysCommand: Command = {
  name: "keys",
  summary: "Create, list and revoke API keys",
  help: HELP,
  async run(args, io) {
    const [action, ...rest] = args;
    if (action === "create") return create(rest, io);
    if (action === "list") return list(rest, io);
    if (action === "revoke") return revoke(rest, io);
    throw new UsageError(action ? `keys has no action "${action}".` : "keys needs an action.");
  },
};

async function create(args: string[], io: CommandIo): Promise<number> {
  const { values } = parseArgs({ args, options: { app: { type: "string" }, workspace: { type: "string" } } });
  if ((values.app === undefined) === (values.workspace === undefined)) {
    throw new UsageError("keys create takes either --app <id> or --workspace <id>.");
  }
  const target =
    values.app !== undefined ? { appId: storedId(values.app) } : { workspaceId: storedId(values.workspace!) };
  const issued = await withAdmin(io, (admin) => admin.issueKey.execute(target));
  line(io.stdout, issued.token);
  const owner = issued.key.kind === "app" ? `app ${issued.key.appId}` : `workspace ${issued.key.workspaceId}`;
  line(io.stderr, `Created key ${issued.key.id} for ${owner}. It is shown only this once.`);
  return EXIT.ok;
}

async function list(args: string[], io: CommandIo): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      app: { type: "string" },
      workspace: { type: "string" },
      json: { type: "boolean", default: false },
    },
  });
  const filter = {
    appId: values.app === undefined ? undefined : storedId(values.app),
    workspaceId: values.workspace === undefined ? undefined : storedId(values.workspace),
  };
  const keys = await withAdmin(
    io,
    async (admin) => {
      await refuseUnknownOwners(admin, filter, values);
      return admin.store.repositories.apiKeys.list(filter);
    },
    { existingDatabase: true },
  );
  if (values.json) {
    line(
      io.stdout,
      JSON.stringify(
        keys.map(({ tokenHash, ...shown }) => shown),
        null,
        2,
      ),
    );
    return EXIT.ok;
  }
  if (keys.length === 0) {
    line(io.stderr, "No API keys.");
    return EXIT.ok;
  }
  printTable(io, ["ID", "KIND", "FOR", "PREFIX", "CREATED", "LAST USED"], keys.map(row));
  return EXIT.ok;
}

async function revoke(args: string[], io: CommandIo): Promise<number> {
  const { positionals } = parseArgs({ args, options: {}, allowPositionals: true });
  if (positionals.length !== 1) throw new UsageError("keys revoke takes one key id.");
  await withAdmin(io, (admin) => admin.revokeKey.execute(storedId(positionals[0]!)), {
    existingDatabase: true,
  });
  line(io.stdout, `Revoked key ${positionals[0]}.`);
  return EXIT.ok;
}

/** A listing for an app or workspace that does not exist is a mistake, not an empty list. */
async function refuseUnknownOwners(
  admin: Admin,
  filter: { appId?: string; workspaceId?: string },
  given: { app?: string; workspace?: string },
): Promise<void> {
  const { apps, workspaces } = admin.store.repositories;
  if (filter.workspaceId !== undefined && !(await workspaces.findById(lookupId(filter.workspaceId))))
    throw new NotFoundError(`No workspace has the id ${given.workspace}.`);
  if (filter.appId !== undefined && !(await apps.findById(lookupId(filter.appId))))
    throw new NotFoundError(`No app has the id ${given.app}.`);
}

const when = (seconds: number | null) =>
  seconds === null ? "never" : new Date(seconds * 1000).toISOString();

function row(key: ApiKey): string[] {
  const owner = key.kind === "app" ? `app ${key.appId}` : `workspace ${key.workspaceId}`;
  // Keys imported as hashes by earlier releases were stored as `ds-…` already.
  const prefix = `${key.displayPrefix.replace(/…$/, "")}…`;
  return [key.id, key.kind, owner, prefix, when(key.createdAt), when(key.lastUsedAt)];
}
