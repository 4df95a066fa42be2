import { createConnection } from "node:net";

/** The Redis tests use: TEST_REDIS_URL, else the local one these machines run. */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

/**
 * Whether Redis answers. Without it, its tests are skipped, saying so, except in CI (`CI=true`),
 * where a missing Redis fails the run instead of letting it pass silently.
 */
export async function requireRedisForTests(): Promise<boolean> {
  const { hostname, port } = new URL(TEST_REDIS_URL);
  const answers = await new Promise<boolean>((resolve) => {
    const socket = createConnection(Number(port || 6379), hostname);
    socket.setTimeout(2_000, () => socket.destroy());
    socket.on("connect", () => socket.write("PING\r\n"));
    socket.on("data", (data) => {
      resolve(data.toString().startsWith("+PONG"));
      socket.destroy();
    });
    socket.on("error", () => resolve(false));
    socket.on("close", () => resolve(false));
  });
  if (answers) return true;
  const message = `Redis does not answer at ${TEST_REDIS_URL}: its tests are skipped.`;
  if (process.env.CI === "true")
    throw new Error(`${message.replace("are skipped", "cannot run")} CI requires them.`);
  console.warn(message);
  return false;
}
