import { aMember, aWorkspace } from "@service-api/ports/testing";
import { describe, expect, it } from "vitest";
import { CreateDataset } from "../datasets/create-dataset.js";
import { CreateDocumentByText } from "../documents/create-document-by-text.js";
import { InProcessTextPipeline } from "../test-support/in-process-pipeline.test-support.js";
import { createWorld } from "../test-support/world.js";
import { IndexDocument } from "./index-document.js";
import { MAX_JOB_ATTEMPTS, RunNextJob } from "./run-next-job.js";

const LEASE_SECONDS = 30;

/** `target` with `overrides` in place of some of its methods (the rest bound to it). */
function withOverrides<T extends object>(target: T, overrides: Partial<T>): T {
  return new Proxy(target, {
    get: (object, key) => {
      if (key in overrides) return overrides[key as keyof T];
      const value: unknown = Reflect.get(object, key);
      return typeof value === "function" ? value.bind(object) : value;
    },
  });
}

async function aQueuedDocument() {
  const world = createWorld();
  const workspace = aWorkspace();
  await world.workspaces.save(workspace);
  await world.workspaces.saveMember(aMember(workspace.id, { role: "owner" }));
  const { dataset } = await new CreateDataset(
    world.datasets,
    world.workspaces,
    world.ids,
    world.clock,
  ).execute({
    workspaceId: workspace.id,
    name: "Docs",
    indexingTechnique: "economy",
  });
  const scope = { workspaceId: workspace.id, datasetId: dataset.id };
  const create = new CreateDocumentByText(world.store, world.ids, world.clock, {
    maxSegmentationLength: 4000,
  });
  const pipeline = new InProcessTextPipeline();
  const workerOf = (
    workerId: string,
    over: {
      repositories?: typeof world.store.repositories;
      jobs?: typeof world.jobs;
      heartbeatMs?: number;
    } = {},
  ) =>
    new RunNextJob(
      over.jobs ?? world.jobs,
      [new IndexDocument(over.repositories ?? world.store.repositories, pipeline, world.ids, world.clock)],
      world.clock,
      { workerId, leaseMs: LEASE_SECONDS * 1000, retryMs: 1000, heartbeatMs: over.heartbeatMs ?? 60_000 },
    );
  const queued = await create.execute({ ...scope, name: "notes", text: "first version" });
  const documentOf = () => world.documents.findInDataset(dataset.id, queued.document.id);
  const contents = async () =>
    (await world.segments.listOfDocument(queued.document.id)).map((segment) => segment.content);
  return { world, scope, create, pipeline, workerOf, documentOf, contents };
}

describe("an indexing job's lease", () => {
  it("fences a job whose document was replaced while it read: it writes nothing, the newer version wins", async () => {
    const { scope, create, pipeline, workerOf, documentOf, contents } = await aQueuedDocument();
    const held = pipeline.holdNextExtract();
    const stale = workerOf("a").execute();
    await held.reached;
    await create.execute({ ...scope, name: "notes", text: "second version" });
    held.release();
    expect(await stale).toBe("done");
    // Still the newer version's: waiting, no chunks of the stale text.
    expect(await documentOf()).toMatchObject({ indexingStatus: "waiting" });
    expect(await contents()).toEqual([]);
    expect(await workerOf("a").execute()).toBe("done");
    expect(await contents()).toEqual(["second version"]);
  });

  it("fences a worker whose lease lapsed and was taken over: the taker's indexing stands", async () => {
    const { world, pipeline, workerOf, documentOf, contents } = await aQueuedDocument();
    const held = pipeline.holdNextExtract();
    const slow = workerOf("a").execute();
    await held.reached;
    world.clock.advance(LEASE_SECONDS + 1);
    expect(await workerOf("b").execute()).toBe("done");
    const taken = await world.segments.listOfDocument((await documentOf())!.id);
    held.release();
    expect(await slow).toBe("lost");
    expect(await contents()).toEqual(["first version"]);
    expect((await world.segments.listOfDocument((await documentOf())!.id)).map((s) => s.id)).toEqual(
      taken.map((s) => s.id),
    );
    expect(await documentOf()).toMatchObject({ indexingStatus: "completed" });
  });

  it("is renewed while one long step runs, so no other worker takes the job", async () => {
    const { world, pipeline, workerOf, contents } = await aQueuedDocument();
    const held = pipeline.holdNextExtract();
    const slow = workerOf("a", { heartbeatMs: 5 }).execute();
    await held.reached;
    for (let beat = 0; beat < 4; beat += 1) {
      world.clock.advance(LEASE_SECONDS - 1);
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
    // Four times past the first lease's end, and still held.
    expect(await workerOf("b").execute()).toBe("idle");
    held.release();
    expect(await slow).toBe("done");
    expect(await contents()).toEqual(["first version"]);
  });

  it("ends the document in error once the store has failed every attempt, and deletes the job", async () => {
    const { world, workerOf, documentOf } = await aQueuedDocument();
    const failing = withOverrides(world.store.repositories, {
      segments: withOverrides(world.store.repositories.segments, {
        publish: () => Promise.reject(new Error("disk I/O error")),
      }),
    });
    const worker = workerOf("a", { repositories: failing });
    for (let attempt = 1; attempt <= MAX_JOB_ATTEMPTS; attempt += 1) {
      expect(await worker.execute()).toBe("failed");
      world.clock.advance(3600);
    }
    expect(await documentOf()).toMatchObject({ indexingStatus: "indexing" });
    expect(await worker.execute()).toBe("done");
    expect(await documentOf()).toMatchObject({
      indexingStatus: "error",
      error: `Indexing failed ${MAX_JOB_ATTEMPTS} times; the document was not indexed.`,
    });
    expect(await world.jobs.countByKind()).toEqual({});
  });

  it("leaves a document its job already published as it is when the job runs again", async () => {
    const { world, workerOf, documentOf } = await aQueuedDocument();
    let finishes = 0;
    const jobs = withOverrides(world.jobs, {
      finish: (jobId: string, worker: string) => {
        finishes += 1;
        return finishes === 1
          ? Promise.reject(new Error("connection reset"))
          : world.jobs.finish(jobId, worker);
      },
    });
    expect(await workerOf("a", { jobs }).execute()).toBe("failed");
    const published = await world.segments.listOfDocument((await documentOf())!.id);
    expect(published).toHaveLength(1);
    world.clock.advance(3600);
    expect(await workerOf("a", { jobs }).execute()).toBe("done");
    expect(await world.segments.listOfDocument((await documentOf())!.id)).toEqual(published);
    expect(await world.jobs.countByKind()).toEqual({});
  });
});
