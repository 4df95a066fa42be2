import { createServiceApiRouter, type ServiceApiRouter } from "@service-api/http";
import express, { type Express } from "express";

/** A host service with routes of its own, serving the service API under /v1 beside them. */
export function createHostApp(databaseUrl: string): { app: Express; serviceApi: ServiceApiRouter } {
  const app = express();
  app.get("/hello", (_req, res) => {
    res.json({ from: "the host app" });
  });

  const serviceApi = createServiceApiRouter({ databaseUrl });
  app.use("/v1", serviceApi);

  app.use((_req, res) => {
    res.status(404).send("Not found by the host app");
  });
  return { app, serviceApi };
}
