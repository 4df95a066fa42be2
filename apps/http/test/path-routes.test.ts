import type { AddressInfo } from "node:net";
import express, { type ErrorRequestHandler, type RequestHandler } from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PathRoute, pathRoutes } from "../src/api/path-routes.js";

/** Each handler answers what it saw: its name, the parameters and the route's label. */
const answer =
  (name: string): RequestHandler =>
  (req, res) => {
    res.json({ name, params: req.params, route: req.route?.path });
  };
const route = (path: string, methods: Record<string, RequestHandler[]>): PathRoute => ({
  path,
  label: path.replace(/\{(\w+)\}/g, ":$1"),
  methods: new Map(Object.entries(methods)),
  otherMethods: (_req, res) => {
    res.status(405).json({ name: "other" });
  },
});
const failing =
  (error: unknown): RequestHandler =>
  () => {
    throw error;
  };

let url: string;
let close: () => Promise<unknown>;
beforeAll(async () => {
  const app = express();
  app.use(
    pathRoutes([
      route("/datasets/tags", {
        GET: [answer("tags")],
        PUT: [(_req, _res, next) => next("route")],
      }),
      route("/datasets/{dataset_id}/binding", { POST: [answer("binding")] }),
      route("/datasets/{dataset_id}", {
        GET: [answer("dataset")],
        PUT: [answer("put")],
        DELETE: [answer("delete")],
      }),
      route("/datasets/{dataset_id}/documents/{document_id}", { GET: [answer("document")] }),
      route("/steps", {
        GET: [
          (_req, res, next) => {
            res.locals.first = true;
            next();
          },
          async (_req, res, next) => {
            await Promise.resolve();
            res.locals.second = true;
            next();
          },
          (_req, res) => {
            res.json({ first: res.locals.first, second: res.locals.second });
          },
        ],
        POST: [failing(Object.assign(new Error("thrown"), { status: 418 }))],
        PUT: [async () => Promise.reject(Object.assign(new Error("rejected"), { status: 418 }))],
        PATCH: [(_req, _res, next) => next("router")],
        DELETE: [async () => Promise.reject(0)],
      }),
    ]),
  );
  app.use((_req, res) => {
    res.status(404).json({ name: "none" });
  });
  app.use(((error, _req, res, _next) => {
    res.status(error.status ?? 500).json({ error: error.message });
  }) as ErrorRequestHandler);
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () =>
    new Promise((resolve) => {
      server.close(resolve);
      server.closeAllConnections();
    });
});
afterAll(() => close());

const send = async (method: string, path: string) => {
  const response = await fetch(`${url}${path}`, { method });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
};

describe("pathRoutes", () => {
  it("takes the first route in order whose literal segments the path holds", async () => {
    expect((await send("GET", "/datasets/tags")).body).toMatchObject({ name: "tags" });
    expect((await send("GET", "/datasets/abc")).body).toEqual({
      name: "dataset",
      params: { dataset_id: "abc" },
      route: "/datasets/:dataset_id",
    });
    expect((await send("GET", "/datasets/a/documents/b")).body).toMatchObject({
      params: { dataset_id: "a", document_id: "b" },
    });
  });

  it("matches case-sensitively, one trailing slash allowed, no empty or extra segment", async () => {
    expect((await send("GET", "/Datasets/tags")).body).toEqual({ name: "none" });
    expect((await send("GET", "/datasets/abc/")).body).toMatchObject({ name: "dataset" });
    for (const path of ["/datasets/abc//", "/datasets//documents/b", "/datasets/a/documents/b/c", "/", "//"])
      expect((await send("GET", path)).body).toEqual({ name: "none" });
  });

  it("gives parameters percent-decoded, and a malformed encoding as Express's URIError", async () => {
    expect((await send("GET", "/datasets/a%20b%2Fc")).body).toMatchObject({
      params: { dataset_id: "a b/c" },
    });
    expect(await send("GET", "/datasets/%E0%A4%A")).toEqual({
      status: 400,
      body: { error: "Failed to decode param '%E0%A4%A'" },
    });
  });

  it("runs HEAD as GET, and any method the path does not serve as its other methods", async () => {
    expect((await send("HEAD", "/datasets/abc")).status).toBe(200);
    expect((await send("DELETE", "/datasets/abc")).body).toMatchObject({ name: "delete" });
    for (const method of ["POST", "OPTIONS"]) {
      expect(await send(method, "/datasets/abc")).toEqual({ status: 405, body: { name: "other" } });
    }
    // HEAD on a path without GET is another method too.
    expect((await send("HEAD", "/datasets/abc/binding")).status).toBe(405);
    expect((await send("POST", "/datasets/abc/binding")).body).toMatchObject({ name: "binding" });
  });

  it("runs a method's handlers in turn, a throw, a rejection or next('router') leaving them", async () => {
    expect((await send("GET", "/steps")).body).toEqual({ first: true, second: true });
    expect(await send("POST", "/steps")).toEqual({ status: 418, body: { error: "thrown" } });
    expect(await send("PUT", "/steps")).toEqual({ status: 418, body: { error: "rejected" } });
    expect((await send("PATCH", "/steps")).body).toEqual({ name: "none" });
    // A rejection with a falsy reason is still an error, never the next handler.
    expect(await send("DELETE", "/steps")).toEqual({ status: 500, body: { error: "Rejected promise" } });
  });

  it("lets next('route') go on to the next route that matches", async () => {
    expect((await send("PUT", "/datasets/tags")).body).toMatchObject({
      name: "put",
      params: { dataset_id: "tags" },
      route: "/datasets/:dataset_id",
    });
  });
});
