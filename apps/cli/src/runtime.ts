import {
  RandomTokenGenerator,
  RandomUuidGenerator,
  Sha256TokenHasher,
  SystemClock,
} from "@service-api/adapters-node";
import type { Store } from "@service-api/ports";
import {
  ExportData,
  ImportData,
  IssueApiKey,
  LoadDemoWorkspace,
  RevokeApiKey,
} from "@service-api/provisioning";
import { openStore, storeOptionsFromEnvironment } from "@service-api/stores";
import type { CommandIo } from "./io.js";

/** The CLI's composition root: the store `DATABASE_URL` names and the provisioning use cases over it. */
export async function openAdmin(io: CommandIo) {
  const { databaseUrl, pool } = storeOptionsFromEnvironment(io.env);
  const store: Store = await openStore({ databaseUrl, pool });
  const [ids, hasher, clock] = [new RandomUuidGenerator(), new Sha256TokenHasher(), new SystemClock()];
  const importData = new ImportData(store, ids, hasher, clock);
  const issueKey = new IssueApiKey(store.repositories, new RandomTokenGenerator(), hasher, ids, clock);
  return {
    databaseUrl,
    store,
    importData,
    exportData: new ExportData(store.repositories),
    issueKey,
    revokeKey: new RevokeApiKey(store.repositories.apiKeys),
    loadDemo: new LoadDemoWorkspace(importData, issueKey, store.repositories.apiKeys),
    close: () => store.close(),
  };
}

export type Admin = Awaited<ReturnType<typeof openAdmin>>;

/** Runs `work` with the admin use cases open, closing the store whatever happens. */
export async function withAdmin<T>(io: CommandIo, work: (admin: Admin) => Promise<T>): Promise<T> {
  const admin = await openAdmin(io);
  try {
    return await work(admin);
  } finally {
    await admin.close();
  }
}
