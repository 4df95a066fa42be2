import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { publicHostOf } from "../config.js";

/** A scrape: the text format's content type and the metrics. */
export interface Scrape {
  contentType: string;
  body: string;
}

export interface MetricsServer {
  /** `http://host:port/metrics`. */
  url: string;
  close(): Promise<void>;
}

/**
 * The metrics listener, apart from the API's port so that it can stay private: `GET /metrics` in
 * Prometheus's text format, every other request 404.
 */
export async function startMetricsServer(
  port: number,
  host: string,
  scrape: () => Promise<Scrape>,
  onError: (error: unknown) => void,
): Promise<MetricsServer> {
  const server = createServer((req, res) => {
    if (req.method !== "GET" || req.url?.split("?")[0] !== "/metrics") {
      res
        .writeHead(404, { "Content-Type": "text/plain; charset=utf-8" })
        .end("Not found: try GET /metrics\n");
      return;
    }
    scrape().then(
      ({ contentType, body }) => res.writeHead(200, { "Content-Type": contentType }).end(body),
      (error: unknown) => {
        onError(error);
        res.writeHead(500, { "Content-Type": "text/plain; charset=utf-8" }).end("Metrics unavailable\n");
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://${publicHostOf(host)}:${bound}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
