import { createServer } from "node:http";
import express from "express";

/**
 * The framework's own share: one route that answers `{}` with Express 5, and the same with
 * node:http. Usage: node empty-servers.js <express | http> <port>
 */
const [kind, port] = process.argv.slice(2);
const ready = () => process.send?.("listening");
if (kind === "express") {
  const app = express();
  app.get("/empty", (_req, res) => {
    res.json({});
  });
  app.listen(Number(port), "127.0.0.1", ready);
} else {
  createServer((_request, response) => {
    response.writeHead(200, { "content-type": "application/json", "content-length": 2 });
    response.end("{}");
  }).listen(Number(port), "127.0.0.1", ready);
}
