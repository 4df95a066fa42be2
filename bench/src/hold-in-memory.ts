import { spawn } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

/**
 * Keeps files (a directory: every file under it) in the page cache while the benchmark runs: `vmtouch -l` (Debian's vmtouch) maps
 * them and locks their pages. For machines whose kernel pages out file cache it sees as cold (this
 * one runs DAMON `pageout`), where random reads of a large file would otherwise come from disk.
 * Resolves once every page is locked; `release` lets them go.
 */
export async function holdInMemory(paths: string[]): Promise<{ release(): Promise<void> }> {
  const child = spawn("vmtouch", ["-l", "-q", ...paths], { stdio: "ignore" });
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  const started = new Promise<void>((resolve, reject) => {
    child.once("spawn", resolve);
    child.once("error", (error) => reject(new Error(`vmtouch (Debian package vmtouch): ${error.message}`)));
  });
  await started;
  const wantedKb = paths.reduce((sum, path) => sum + sizeKb(path), 0);
  while (lockedKb(child.pid!) < wantedKb) {
    if (child.exitCode !== null) throw new Error(`vmtouch exited with ${child.exitCode}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    release: async () => {
      child.kill("SIGTERM");
      await exited;
    },
  };
}

function sizeKb(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return Math.floor(stat.size / 1024);
  return readdirSync(path).reduce((sum, name) => sum + sizeKb(join(path, name)), 0);
}

function lockedKb(pid: number): number {
  try {
    return Number(/VmLck:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
  } catch {
    return 0;
  }
}
