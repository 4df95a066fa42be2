import { spawn } from "node:child_process";
import { readFileSync, statSync } from "node:fs";

/**
 * Keeps files in the page cache while the benchmark runs: `vmtouch -l` (Debian's vmtouch) maps
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
  const wantedKb = paths.reduce((sum, path) => sum + Math.floor(statSync(path).size / 1024), 0);
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

function lockedKb(pid: number): number {
  try {
    return Number(/VmLck:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
  } catch {
    return 0;
  }
}
