import type { Duplex } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import type { ConnectionSockets } from "./open-time-out.js";
import { type ActiveBackends, PROBE_TIMEOUT_MS } from "./unanswered-statements.js";

/**
 * Which of these backends are at work on a statement, asked on a connection of its own (one the
 * store's close cuts too); undefined when the server does not answer within `PROBE_TIMEOUT_MS`.
 */
export function activeBackendsOn(databaseUrl: string, sockets: ConnectionSockets): ActiveBackends {
  return async (processIds) => {
    let socket: Duplex | undefined;
    const client = new pg.Client({
      connectionString: databaseUrl,
      connectionTimeoutMillis: PROBE_TIMEOUT_MS,
      query_timeout: PROBE_TIMEOUT_MS,
      application_name: "service-api-probe",
      stream: () => {
        socket = sockets.stream();
        return socket;
      },
    });
    client.on("error", () => {});
    try {
      await client.connect();
      const { rows } = await client.query<{ pid: number }>(
        "select pid from pg_stat_activity where pid = any($1::int[]) and state = 'active'",
        [processIds],
      );
      return new Set(rows.map((row) => row.pid));
    } catch {
      return undefined;
    } finally {
      // Politely if it can; a stalled connection would never end.
      await Promise.race([client.end().catch(() => {}), sleep(PROBE_TIMEOUT_MS, undefined, { ref: false })]);
      socket?.destroy();
    }
  };
}
