import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, CHROMIUM_ARGS, requireChromiumForTests } from "./support/chromium.js";
import { call } from "./support/http.js";
import { OPERATION_COUNT } from "./support/operation-count.js";
import { TEST_STORE } from "./support/test-database.js";
import { startTestServer, type TestServer } from "./support/test-server.js";

const available = TEST_STORE === "sqlite" && requireChromiumForTests();

describe.runIf(available)("the API reference page at /docs", () => {
  let server: TestServer;
  let browser: Browser;
  beforeAll(async () => {
    // The proxy below is trusted to name the path it serves the server under.
    server = await startTestServer({ TRUST_PROXY: "loopback" });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("shows every operation of the served document, loading nothing from outside this server", async () => {
    const document = (await call(server.url, "GET", "/v1/openapi.json")).body as {
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    const operationIds = Object.values(document.paths).flatMap((methods) =>
      Object.values(methods).map((operation) => operation.operationId),
    );
    expect(operationIds).toHaveLength(OPERATION_COUNT);

    const page = await browser.newPage();
    const requested: string[] = [];
    const problems: string[] = [];
    page.on("request", (request) => requested.push(request.url()));
    page.on("console", (message) => {
      if (message.type() === "error") problems.push(message.text());
    });
    page.on("pageerror", (error) => problems.push(error.message));
    const response = await page.goto(`${server.url}/docs`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()["content-security-policy"]).toContain("default-src 'self'");
    await page.waitForSelector(".opblock", { timeout: 15_000 }).catch(async (error) => {
      console.log("PROBLEMS", problems, "REQUESTED", requested, (await page.content()).slice(0, 2000));
      throw error;
    });
    const shown = await page.$$eval(".opblock", (blocks) => blocks.map((block) => block.id));
    for (const operationId of operationIds) {
      expect(
        shown.some((id) => id.endsWith(`-${operationId}`)),
        operationId,
      ).toBe(true);
    }
    expect(requested.length).toBeGreaterThan(3);
    expect(requested.filter((url) => !url.startsWith(`${server.url}/`))).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("loads behind a proxy that serves the API under a path of its own, from /docs and /docs/, and calls the API there", async () => {
    // A proxy serving the server under /svc, stripping the path on the way in.
    const proxy = createServer((incoming, answer) => {
      if (!incoming.url?.startsWith("/svc/")) return answer.writeHead(404).end();
      const forwarded = request(`${server.url}${incoming.url.slice("/svc".length)}`, {
        method: incoming.method,
        headers: { ...incoming.headers, "x-forwarded-prefix": "/svc" },
      });
      forwarded.on("response", (response) => {
        answer.writeHead(response.statusCode ?? 502, response.headers);
        response.pipe(answer);
      });
      // A connection the server closes as the test ends (its time-out, say) is the browser's 502.
      forwarded.on("error", () => answer.headersSent || answer.writeHead(502).end());
      incoming.pipe(forwarded);
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/svc`;
    try {
      for (const path of ["/docs", "/docs/"]) {
        const page = await browser.newPage();
        const requested: string[] = [];
        page.on("request", (sent) => requested.push(sent.url()));
        expect((await page.goto(`${base}${path}`))?.status()).toBe(200);
        // Every file through the proxy: slower than direct on a busy machine.
        await page.waitForSelector(".opblock", { timeout: 25_000 });
        expect(await page.$$eval(".opblock", (blocks) => blocks.length), path).toBe(OPERATION_COUNT);
        expect(requested.filter((url) => !url.startsWith(`${base}/`))).toEqual([]);
        expect(requested).toContain(`${base}/v1/openapi.json`);
        // "Try it out" calls the API where the proxy serves it.
        expect(await page.inputValue("select#servers")).toBe("/svc/v1");
        await page.close();
      }
    } finally {
      proxy.close();
    }
    // Two pages of Swagger UI through a proxy: more than the default 20 s on a busy machine.
  }, 90_000);
});
