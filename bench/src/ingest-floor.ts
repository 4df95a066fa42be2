import { createHash } from "node:crypto";
import { RandomUuidGenerator, SystemClock } from "@service-api/adapters-node";
import { CreateDataset, CreateDocumentByText, IndexDocument, RunNextJob } from "@service-api/application";
import { chunkDocument, prepareDrafts } from "@service-api/domain";
import type { ChunkingRule, FileToExtract, PreparedSegment, Store, TextPipeline } from "@service-api/ports";
import { aMember, aWorkspace } from "@service-api/ports/testing";
import { openStore } from "@service-api/stores";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** The text pipeline in this thread: a `.txt` read as UTF-8, chunked by the domain's chunker. */
class SameThreadPipeline implements TextPipeline {
  async extract(file: FileToExtract) {
    return { ok: true as const, units: [new TextDecoder().decode(file.bytes).replace(/\r\n?/g, "\n")] };
  }

  async chunk(units: readonly string[], rule: ChunkingRule): Promise<PreparedSegment[]> {
    return chunkSegments(units, rule);
  }

  async close() {}
}

/** What indexing does to a text, alone: Dify's chunks, each hashed. */
export function chunkSegments(units: readonly string[], rule: ChunkingRule): PreparedSegment[] {
  return prepareDrafts(chunkDocument(units, rule.mode, rule.rules, rule.form), sha256);
}

/** A workspace with its owner and an economy dataset, in `store`. */
export async function aBenchKnowledgeBase(store: Store) {
  const ids = new RandomUuidGenerator();
  const clock = new SystemClock();
  const { repositories } = store;
  const workspace = aWorkspace();
  await repositories.workspaces.save(workspace);
  await repositories.workspaces.saveMember(aMember(workspace.id, { role: "owner", name: "Bench" }));
  const { dataset } = await new CreateDataset(
    repositories.datasets,
    repositories.workspaces,
    ids,
    clock,
  ).execute({
    workspaceId: workspace.id,
    name: `Ingest ${ids.next().slice(0, 8)}`,
    indexingTechnique: "economy",
  });
  return { workspace, dataset };
}

/**
 * The floor of ingest: the same use cases (create by text, then index) in one process, one after
 * another, over the same store, with no HTTP and no threads: the chunker plus the store. Seconds
 * for `texts`, each created and indexed.
 */
export async function floorIngest(databaseUrl: string, texts: readonly string[]): Promise<number> {
  const store = await openStore({ databaseUrl });
  try {
    const ids = new RandomUuidGenerator();
    const clock = new SystemClock();
    const { workspace, dataset } = await aBenchKnowledgeBase(store);
    const create = new CreateDocumentByText(store, ids, clock, { maxSegmentationLength: 4000 });
    const worker = new RunNextJob(
      store.repositories.jobs,
      [new IndexDocument(store.repositories, new SameThreadPipeline(), ids, clock)],
      clock,
      { workerId: "floor", leaseMs: 60_000, retryMs: 1_000 },
    );
    const started = performance.now();
    for (const [index, text] of texts.entries()) {
      await create.execute({
        workspaceId: workspace.id,
        datasetId: dataset.id,
        name: `doc-${index}.txt`,
        text,
      });
      if ((await worker.execute()) !== "done") throw new Error("the floor's job did not run");
    }
    return (performance.now() - started) / 1000;
  } finally {
    await store.close();
  }
}
