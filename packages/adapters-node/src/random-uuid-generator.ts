import { randomUUID } from "node:crypto";
import type { IdGenerator } from "@service-api/ports";

export class RandomUuidGenerator implements IdGenerator {
  next(): string {
    return randomUUID();
  }
}
