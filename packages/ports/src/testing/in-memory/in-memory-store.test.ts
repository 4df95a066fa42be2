import { describeStoreContract } from "../contract-suite.js";
import { createInMemoryStore } from "./in-memory-store.js";

describeStoreContract(async () => createInMemoryStore());
