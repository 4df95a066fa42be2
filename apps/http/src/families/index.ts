import { appFamily } from "./app/index.js";
import { conversationsFamily } from "./conversations/index.js";
import { datasetsFamily } from "./datasets/index.js";
import { documentsFamily } from "./documents/index.js";
import { metadataFamily } from "./metadata/index.js";
import { modelsFamily } from "./models/index.js";
import { retrievalFamily } from "./retrieval/index.js";
import { segmentsFamily } from "./segments/index.js";
import { tagsFamily } from "./tags/index.js";

/** Every resource family the API serves. */
export const FAMILIES = [
  tagsFamily,
  metadataFamily,
  documentsFamily,
  datasetsFamily,
  conversationsFamily,
  appFamily,
  modelsFamily,
  segmentsFamily,
  retrievalFamily,
] as const;

export type { AppUseCases } from "./app/index.js";
export type { ConversationUseCases } from "./conversations/index.js";
export type { DatasetUseCases } from "./datasets/index.js";
export type { DocumentUseCases } from "./documents/index.js";
export type { FamilyContext } from "./family.js";
export type { MetadataUseCases } from "./metadata/index.js";
export type { ModelUseCases } from "./models/index.js";
export type { RetrievalUseCases } from "./retrieval/index.js";
export type { SegmentUseCases } from "./segments/index.js";
export type { TagUseCases } from "./tags/index.js";
export {
  appFamily,
  conversationsFamily,
  datasetsFamily,
  documentsFamily,
  metadataFamily,
  modelsFamily,
  retrievalFamily,
  segmentsFamily,
  tagsFamily,
};
