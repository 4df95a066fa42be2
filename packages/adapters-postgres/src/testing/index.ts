export * from "./test-databases.js";
