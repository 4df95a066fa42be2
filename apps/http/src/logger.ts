import { type DestinationStream, type Logger, pino } from "pino";
import type { Config } from "./config.js";

/** Structured JSON lines on stdout. Authorization headers are redacted should one ever be logged. */
export function createLogger(level: Config["logLevel"], destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: "service-api", pid: process.pid },
      redact: {
        paths: ["req.headers.authorization", "headers.authorization", "authorization"],
        censor: "[redacted]",
      },
    },
    destination,
  );
}
