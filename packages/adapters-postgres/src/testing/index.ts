export * from "./named-statement-plans.js";
export * from "./test-databases.js";
