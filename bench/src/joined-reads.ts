/**
 * `pnpm --filter @service-api/bench joined-reads [file]`: on SQLite, each read the spec's operations
 * make in one statement (`findDetail`, `findFieldUsage`, `findForVariableUpdate`)
 * against the separate statements that read the same, in alternating blocks in one process: the
 * database's work alone, without HTTP. Defaults to the generated 1k set; pass the 1M file to see it
 * with random reads over a large file.
 */
import { openSqliteStore } from "@service-api/adapters-sqlite";
import type { Repositories } from "@service-api/ports";
import { CONVERSATION_COUNT, ids, userOf } from "./fixture.js";

const path = process.argv[2] ?? new URL("../.data/documents-1000.sqlite", import.meta.url).pathname;
const documents = Number(/documents-(\d+)/.exec(path)?.[1] ?? 1000);
const BLOCK = 10_000;
const ROUNDS = 5;

// The same port methods, read the two ways: gathered into one statement, and as SQLite does.
const gathering = await openSqliteStore({ databaseUrl: `file:${path}`, gatherReads: true });
const separate = await openSqliteStore({ databaseUrl: `file:${path}` });
const joined = gathering.repositories;
const random = (count: number) => Math.floor(Math.random() * count);
const [workspace, dataset, app] = [ids.workspace, ids.dataset, ids.app];

/** Each read the spec's operations make, given the repositories to make it with. */
const READS: Record<string, (repositories: Repositories) => Promise<unknown>> = {
  getDocument: ({ documents: docs }) => docs.findDetail(workspace, dataset, ids.document(random(documents))),
  listMetadataFields: ({ metadata }) => metadata.findFieldUsage(workspace, dataset),
  updateVariable: ({ conversations }) => {
    const conversation = random(CONVERSATION_COUNT);
    return conversations.findForVariableUpdate(
      app,
      userOf(conversation),
      ids.conversation(conversation),
      ids.variable,
    );
  },
};

async function rate(read: () => Promise<unknown>): Promise<number> {
  const started = process.hrtime.bigint();
  for (let call = 0; call < BLOCK; call += 1) await read();
  return BLOCK / (Number(process.hrtime.bigint() - started) / 1e9);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
for (const [name, read] of Object.entries(READS)) {
  const rates = { joined: [] as number[], separate: [] as number[] };
  const [gathered, apart] = [() => read(joined), () => read(separate.repositories)];
  await rate(gathered);
  await rate(apart);
  for (let round = 0; round < ROUNDS; round += 1) {
    rates.joined.push(await rate(gathered));
    rates.separate.push(await rate(apart));
  }
  const [j, s] = [median(rates.joined), median(rates.separate)];
  console.log(
    `${name} at ${documents} documents: joined ${Math.round(j)} reads/s, separate ${Math.round(s)}, joined ÷ separate ${(j / s).toFixed(2)}`,
  );
}
await separate.close();
await gathering.close();
