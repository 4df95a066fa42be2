import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { writeFileAtomically } from "../src/io.js";

const IO_FILE = new URL("../dist/io.js", import.meta.url);
const IO = IO_FILE.href;
const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A process writing `target` through `writeFileAtomically` whose text never ends (an export still reading). */
function unfinishedWrite(target: string) {
  if (!existsSync(IO_FILE))
    throw new Error(`${IO_FILE.pathname} is missing: build first (turbo's test task does).`);
  const script = `
    import { writeFileAtomically } from ${JSON.stringify(IO)};
    await writeFileAtomically(${JSON.stringify(target)}, async (write) => {
      await write("{\\"version\\": 1, \\"workspaces\\": [");
      console.log("writing");
      await new Promise(() => setInterval(() => {}, 1000));
    });`;
  const child = spawn(process.execPath, ["--input-type=module", "-e", script]);
  const ended = new Promise<NodeJS.Signals | null>((resolve) =>
    child.on("close", (_code, signal) => resolve(signal)),
  );
  // Writing, or a writer that ended before it wrote: its own failure then, not a time-out.
  const writing = Promise.race([
    new Promise<void>((resolve) => child.stdout.once("data", () => resolve())),
    ended.then((signal) => {
      throw new Error(`the writer ended before writing (${signal ?? "no signal"})`);
    }),
  ]);
  return { child, writing, ended };
}

describe("writeFileAtomically, stopped by a signal (Ctrl-C during an export)", () => {
  it.each(["SIGINT", "SIGTERM", "SIGHUP"] as const)(
    "removes its unfinished file on %s, leaves the target as it was, and stops as the signal does",
    async (signal) => {
      const folder = mkdtempSync(join(tmpdir(), "service-api-atomic-"));
      folders.push(folder);
      const target = join(folder, "backup.json");
      writeFileSync(target, "the previous backup");
      const { child, writing, ended } = unfinishedWrite(target);
      await writing;
      expect(readdirSync(folder).filter((name) => name.endsWith(".tmp"))).toHaveLength(1);
      child.kill(signal);
      expect(await ended).toBe(signal);
      expect(readdirSync(folder)).toEqual(["backup.json"]);
      expect(readFileSync(target, "utf8")).toBe("the previous backup");
    },
  );
});

describe("writeFileAtomically's permissions", () => {
  const folder = () => {
    const made = mkdtempSync(join(tmpdir(), "service-api-atomic-"));
    folders.push(made);
    return made;
  };

  it("makes a new file its owner's alone (an export holds key hashes), whatever the umask", async () => {
    const target = join(folder(), "export.json");
    const umask = process.umask(0o022);
    try {
      await writeFileAtomically(target, (write) => write("{}"));
    } finally {
      process.umask(umask);
    }
    expect(statSync(target).mode & 0o777).toBe(0o600);
  });
});
