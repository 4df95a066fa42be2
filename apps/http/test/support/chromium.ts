import { existsSync } from "node:fs";

/** Debian's Chromium, which the project's set-up installs when missing (scripts/toolchain.sh). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** The flags a headless Chromium needs here: as root, without a GPU, without reaching out. */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * Whether browser tests can run. Without Chromium they are skipped, saying so, except in CI
 * (`CI=true`), where a missing browser fails the run instead of letting it pass silently.
 */
export function requireChromiumForTests(): boolean {
  if (existsSync(CHROMIUM)) return true;
  const message = `Chromium is not at ${CHROMIUM}: the browser tests are skipped (apt-get install -y chromium).`;
  if (process.env.CI === "true")
    throw new Error(message.replace("are skipped", "cannot run; CI requires them"));
  console.warn(message);
  return false;
}
