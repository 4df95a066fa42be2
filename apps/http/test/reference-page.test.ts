import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, CHROMIUM_ARGS, requireChromiumForTests } from "./support/chromium.js";
import { call } from "./support/http.js";
import { TEST_STORE } from "./support/test-database.js";
import { startTestServer, type TestServer } from "./support/test-server.js";

const available = TEST_STORE === "sqlite" && requireChromiumForTests();

describe.runIf(available)("the API reference page at /docs", () => {
  let server: TestServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await startTestServer();
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
    expect(operationIds).toHaveLength(25);

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
});
