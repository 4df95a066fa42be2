export * from "./test-database-url.js";
