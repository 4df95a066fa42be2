#!/usr/bin/env node
import { EXIT } from "./io.js";
import { run } from "./run.js";

// Output a reader stopped taking (`service-api export | head`) fails the command, not the process;
// past the command's own writes, it still says the output was cut.
process.stdout.on("error", () => {
  process.exitCode = EXIT.failed;
});

process.exitCode = await run(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
});
