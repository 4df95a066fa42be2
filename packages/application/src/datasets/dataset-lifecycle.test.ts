import type { RetrievalModel } from "@service-api/domain";
import { aDocument, aMember, aTag, aWorkspace } from "@service-api/ports/testing";
import { describe, expect, it } from "vitest";
import { PurgeDeletedDataset } from "../jobs/purge-deleted-dataset.js";
import { RunNextJob } from "../jobs/run-next-job.js";
import { createWorld } from "../test-support/world.js";
import { CreateDataset } from "./create-dataset.js";
import { DeleteDataset } from "./delete-dataset.js";
import { UpdateDataset } from "./update-dataset.js";

const KEYWORD: RetrievalModel = {
  search_method: "keyword_search",
  reranking_enable: false,
  reranking_model: { reranking_provider_name: "", reranking_model_name: "" },
  reranking_mode: null,
  top_k: 3,
  score_threshold_enabled: false,
  score_threshold: null,
  weights: null,
};

async function aWorkspaceWithOwner() {
  const world = createWorld();
  const workspace = aWorkspace();
  await world.workspaces.save(workspace);
  const owner = aMember(workspace.id, { name: "Ada", role: "owner" });
  await world.workspaces.saveMember(owner);
  const create = new CreateDataset(world.datasets, world.workspaces, world.ids, world.clock);
  const update = new UpdateDataset(world.datasets, world.workspaces, world.clock);
  const remove = new DeleteDataset(world.store, world.ids, world.clock);
  return { world, workspace, owner, create, update, remove };
}

describe("datasets made, changed and deleted by the API", () => {
  it("creates an empty dataset by the owner, its API on, economy settings as given", async () => {
    const { world, workspace, owner, create } = await aWorkspaceWithOwner();
    const view = await create.execute({ workspaceId: workspace.id, name: "Docs", retrievalModel: KEYWORD });
    expect(view.dataset).toMatchObject({
      name: "Docs",
      description: "",
      enableApi: true,
      builtInFieldEnabled: false,
      indexingTechnique: null,
      permission: "only_me",
      retrievalModel: KEYWORD,
      createdBy: owner.id,
      createdAt: world.clock.now,
    });
    expect(view.authorName).toBe("Ada");
    expect(view.counts).toEqual({ documents: 0, availableDocuments: 0, words: 0 });
  });

  it.each([
    [{ name: " " }, "invalid_param", "name: Name must not be blank."],
    [{ name: "x".repeat(41) }, "invalid_param", "name: Name must be between 1 to 40 characters."],
    [
      { description: "d".repeat(401) },
      "invalid_param",
      "description: Description cannot exceed 400 characters.",
    ],
    [{ provider: "external" as const }, "invalid_param", "External knowledge bases are not supported."],
    [{ indexingTechnique: "high_quality" as const }, "provider_not_initialize", undefined],
    [
      { retrievalModel: { ...KEYWORD, search_method: "semantic_search" as const } },
      "provider_not_initialize",
      undefined,
    ],
    [
      { retrievalModel: { ...KEYWORD, search_method: "hybrid_search" as const } },
      "provider_not_initialize",
      undefined,
    ],
    [{ retrievalModel: { ...KEYWORD, reranking_enable: true } }, "provider_not_initialize", undefined],
  ])("refuses a create with %j, writing nothing", async (over, code, message) => {
    const { world, workspace, create } = await aWorkspaceWithOwner();
    const before = world.contents();
    await expect(create.execute({ workspaceId: workspace.id, name: "Docs", ...over })).rejects.toMatchObject({
      code,
      ...(message && { message }),
    });
    expect(world.contents()).toEqual(before);
  });

  it("answers a name the workspace holds already 409, another workspace's being free", async () => {
    const { world, workspace, create } = await aWorkspaceWithOwner();
    await create.execute({ workspaceId: workspace.id, name: "Docs" });
    await expect(create.execute({ workspaceId: workspace.id, name: "Docs" })).rejects.toMatchObject({
      code: "dataset_name_duplicate",
      message: "The dataset name already exists. Please modify your dataset name.",
    });
    const other = aWorkspace();
    await world.workspaces.save(other);
    await expect(create.execute({ workspaceId: other.id, name: "Docs" })).resolves.toBeDefined();
  });

  it("changes only what an update gives, by the owner, and never unsets the technique", async () => {
    const { world, workspace, owner, create, update } = await aWorkspaceWithOwner();
    const { dataset } = await create.execute({ workspaceId: workspace.id, name: "Docs", description: "old" });
    world.clock.advance(60);
    const changed = await update.execute({
      workspaceId: workspace.id,
      datasetId: dataset.id,
      indexingTechnique: "economy",
      permission: "all_team_members",
    });
    expect(changed.dataset).toMatchObject({
      name: "Docs",
      description: "old",
      indexingTechnique: "economy",
      permission: "all_team_members",
      updatedBy: owner.id,
      updatedAt: world.clock.now,
    });
    await expect(
      update.execute({ workspaceId: workspace.id, datasetId: dataset.id, indexingTechnique: null }),
    ).rejects.toMatchObject({ code: "invalid_param", message: "indexing_technique: cannot be unset." });
    await create.execute({ workspaceId: workspace.id, name: "Taken" });
    await expect(
      update.execute({ workspaceId: workspace.id, datasetId: dataset.id, name: "Taken" }),
    ).rejects.toMatchObject({ code: "dataset_name_duplicate" });
  });

  it("checks the dataset before what an update asks for", async () => {
    const { workspace, update } = await aWorkspaceWithOwner();
    await expect(
      update.execute({ workspaceId: workspace.id, datasetId: globalThis.crypto.randomUUID(), name: " " }),
    ).rejects.toMatchObject({ code: "not_found", message: "Dataset not found." });
  });

  it("deletes a dataset from every read at once, and a worker purges its rows", async () => {
    const { world, workspace, create, remove } = await aWorkspaceWithOwner();
    const { dataset } = await create.execute({ workspaceId: workspace.id, name: "Docs" });
    const tag = aTag(workspace.id);
    await world.tags.save(tag);
    await world.tags.bindToDataset({
      workspaceId: workspace.id,
      datasetId: dataset.id,
      tags: [{ tagId: tag.id, bindingId: world.ids.next() }],
      createdAt: 1,
    });
    const documents = Array.from({ length: 5 }, (_, index) => aDocument(dataset.id, { position: index + 1 }));
    for (const document of documents) await world.documents.save(document);

    await remove.execute({ workspaceId: workspace.id, datasetId: dataset.id });
    expect(await world.datasets.findInWorkspace(workspace.id, dataset.id)).toBeUndefined();
    expect(await world.tags.boundTagIds(dataset.id)).toEqual([]);
    await expect(remove.execute({ workspaceId: workspace.id, datasetId: dataset.id })).rejects.toMatchObject({
      code: "not_found",
    });
    // Its name is free at once.
    await create.execute({ workspaceId: workspace.id, name: "Docs" });
    expect(await world.jobs.countByKind()).toEqual({ purge_dataset: 1 });

    const worker = new RunNextJob(world.jobs, [new PurgeDeletedDataset(world.datasets, 2)], world.clock, {
      workerId: "worker-1",
      leaseMs: 30_000,
      retryMs: 1_000,
    });
    expect(await worker.execute()).toBe("done");
    for (const document of documents)
      expect(await world.documents.findInDataset(dataset.id, document.id)).toBeUndefined();
    expect(await world.jobs.countByKind()).toEqual({});
    expect(await worker.execute()).toBe("idle");
  });
});

describe("the background worker", () => {
  it("gives a job whose work fails back, to try again after a wait that doubles", async () => {
    const world = createWorld();
    const failures: unknown[] = [];
    const failing = {
      kind: "purge_dataset" as const,
      run: async () => {
        throw new Error("disk full");
      },
    };
    const worker = new RunNextJob(
      world.jobs,
      [failing],
      world.clock,
      { workerId: "w", leaseMs: 30_000, retryMs: 1_000 },
      (error) => failures.push(error),
    );
    const now = world.clock.nowMilliseconds();
    await world.jobs.enqueue({
      id: world.ids.next(),
      kind: "purge_dataset",
      subjectId: "s",
      runAfter: now,
      createdAt: now,
    });
    expect(await worker.execute()).toBe("failed");
    expect(failures).toHaveLength(1);
    expect(await worker.execute()).toBe("idle");
    world.clock.advance(1);
    expect(await worker.execute()).toBe("failed");
    world.clock.advance(1);
    expect(await worker.execute()).toBe("idle");
    world.clock.advance(1);
    expect(await worker.execute()).toBe("failed");
  });

  it("stops a job at its next step when stopping, and gives it back at once", async () => {
    const world = createWorld();
    let stopping = false;
    const steps: number[] = [];
    const stepping = {
      kind: "purge_dataset" as const,
      run: async (_job: unknown, lease: { renew(): Promise<boolean> }) => {
        for (let step = 1; step <= 3; step += 1) {
          steps.push(step);
          if (step === 1) stopping = true;
          if (!(await lease.renew())) return "lost" as const;
        }
        return "done" as const;
      },
    };
    const options = { workerId: "w", leaseMs: 30_000, retryMs: 1_000, stopping: () => stopping };
    const now = world.clock.nowMilliseconds();
    await world.jobs.enqueue({
      id: world.ids.next(),
      kind: "purge_dataset",
      subjectId: "s",
      runAfter: now,
      createdAt: now,
    });
    expect(await new RunNextJob(world.jobs, [stepping], world.clock, options).execute()).toBe("lost");
    expect(steps).toEqual([1]);
    const next = new RunNextJob(world.jobs, [stepping], world.clock, {
      ...options,
      workerId: "v",
      stopping: () => false,
    });
    expect(await next.execute()).toBe("done");
  });
});
