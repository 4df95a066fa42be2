import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { expressMessages } from "@service-api/http";
import { createHostApp } from "./host-app.js";

/**
 * The host service as a process: its own routes and the service API under /v1, on the SQLite file
 * (or PostgreSQL database) DATABASE_URL names. Prints one JSON line with its address once it listens.
 */
const databaseUrl = process.env.DATABASE_URL ?? "file:./data/kb.sqlite";
const { app, serviceApi } = createHostApp(databaseUrl);
await serviceApi.ready;

// Requests and responses built with Express's prototypes: less work per request.
const server = createServer(expressMessages(app), app);
server.listen(Number(process.env.PORT ?? 3000), process.env.HOST ?? "127.0.0.1", () => {
  const { address, port } = server.address() as AddressInfo;
  console.log(JSON.stringify({ msg: "listening", url: `http://${address}:${port}` }));
});

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => {
    server.close(() => {
      void serviceApi.close().then(() => process.exit(0));
    });
    server.closeIdleConnections();
  });
}
