import { base64FromBytes } from "../format/base64.js";
import type { ImportFileInput } from "../format/import-file-schema.js";

/** Fixed ids of the demo records, so the printed examples always point at them. */
export const DEMO = {
  workspaceId: "0d3f5a10-6c2e-4b7d-9a41-5e8c2f1b7a01",
  memberId: "0d3f5a10-6c2e-4b7d-9a41-5e8c2f1b7a02",
  datasetId: "0d3f5a10-6c2e-4b7d-9a41-5e8c2f1b7a10",
  documentId: "0d3f5a10-6c2e-4b7d-9a41-5e8c2f1b7a11",
  tagIds: ["0d3f5a10-6c2e-4b7d-9a41-5e8c2f1b7a21", "0d3f5a10-6c2e-4b7d-9a41-5e8c2f1b7a22"],
  appTagId: "0d3f5a10-6c2e-4b7d-9a41-5e8c2f1b7a23",
  categoryFieldId: "0d3f5a10-6c2e-4b7d-9a41-5e8c2f1b7a12",
  chatAppId: "0d3f5a10-6c2e-4b7d-9a41-5e8c2f1b7a30",
  workflowAppId: "0d3f5a10-6c2e-4b7d-9a41-5e8c2f1b7a31",
  conversationId: "0d3f5a10-6c2e-4b7d-9a41-5e8c2f1b7a40",
  variableId: "0d3f5a10-6c2e-4b7d-9a41-5e8c2f1b7a41",
  user: "demo-user",
  /** The batch of the demo's document created by text: what its indexing-status curl polls. */
  textBatch: "20260101000100482913",
} as const;

const T = 1_767_225_600; // 2026-01-01T00:00:00Z

/** The paragraphs of the demo's document created by text: its file's text, and its segments. */
const FAQ = [
  "How do I pair a widget? Hold its button for three seconds.",
  "How do I reset it? Hold the button for ten seconds, until the light blinks red.",
];
const FAQ_BYTES = new TextEncoder().encode(FAQ.join("\n\n"));

/** A small, realistic workspace: a product handbook with metadata and tags, and two apps. */
export function demoWorkspaceFile(): ImportFileInput {
  return {
    version: 1,
    workspaces: [
      {
        id: DEMO.workspaceId,
        name: "Acme (demo)",
        members: [{ id: DEMO.memberId, name: "Ada Lovelace", role: "owner" }, { name: "Grace Hopper" }],
        tags: [
          { id: DEMO.tagIds[0], name: "product", type: "knowledge", created_at: T },
          { id: DEMO.tagIds[1], name: "support", type: "knowledge", created_at: T + 1 },
          { id: DEMO.appTagId, name: "assistants", type: "app", created_at: T + 2 },
        ],
        datasets: [
          {
            id: DEMO.datasetId,
            name: "Product handbook",
            description: "Everything about Acme Widgets: setting up, warranty, and what comes next.",
            built_in_field_enabled: true,
            created_at: T,
            process_rule: {
              mode: "custom",
              rules: { segmentation: { separator: "\n\n", max_tokens: 500, chunk_overlap: 50 } },
            },
            metadata_fields: [
              { name: "author", type: "string", created_at: T },
              { id: DEMO.categoryFieldId, name: "category", type: "string", created_at: T + 1 },
              { name: "published", type: "time", created_at: T + 2 },
            ],
            documents: [
              {
                id: DEMO.documentId,
                name: "getting-started.md",
                created_by: DEMO.memberId,
                created_at: T + 3600,
                updated_at: T + 7200,
                completed_at: T + 3660,
                indexing_latency: 58.2,
                tokens: 412,
                upload_file: {
                  name: "getting-started.md",
                  size: 2048,
                  extension: "md",
                  mime_type: "text/markdown",
                },
                process_rule: {
                  mode: "custom",
                  rules: {
                    pre_processing_rules: [{ id: "remove_extra_spaces", enabled: true }],
                    segmentation: { separator: "\n\n", max_tokens: 500, chunk_overlap: 50 },
                  },
                },
                metadata: { author: "Ada Lovelace", category: "onboarding", published: T + 3600 },
                segments: [
                  {
                    content:
                      "Acme Widgets ship with a quick-start card. Plug the widget in and hold the button for three seconds.",
                    hit_count: 12,
                  },
                  {
                    content:
                      "The status light blinks blue while pairing and turns solid green once the widget is online.",
                    hit_count: 7,
                  },
                  {
                    content: "If pairing fails, reset the widget by holding the button for ten seconds.",
                    hit_count: 3,
                  },
                ],
              },
              {
                name: "warranty.pdf",
                created_at: T + 86_400,
                completed_at: T + 86_500,
                tokens: 980,
                upload_file: {
                  name: "warranty.pdf",
                  size: 88_412,
                  extension: "pdf",
                  mime_type: "application/pdf",
                },
                metadata: { author: "Grace Hopper", category: "policies" },
                segments: [
                  {
                    content:
                      "Every Acme Widget carries a two-year limited warranty from the date of purchase.",
                  },
                ],
              },
              { name: "roadmap-2026.md", indexing_status: "indexing", created_at: T + 172_800, tokens: 0 },
              {
                name: "faq.txt",
                created_at: T + 60,
                created_by: DEMO.memberId,
                completed_at: T + 62,
                indexing_latency: 1.4,
                batch: DEMO.textBatch,
                processing_started_at: T + 60,
                parsing_completed_at: T + 61,
                cleaning_completed_at: T + 61,
                splitting_completed_at: T + 61,
                upload_file: {
                  name: "faq.txt",
                  size: FAQ_BYTES.length,
                  extension: "txt",
                  mime_type: "text/plain",
                  content_base64: base64FromBytes(FAQ_BYTES),
                },
                process_rule: { mode: "automatic", rules: {} },
                segments: FAQ.map((content) => ({ content })),
              },
            ],
          },
        ],
        apps: [
          {
            id: DEMO.chatAppId,
            name: "Support assistant",
            mode: "advanced-chat",
            description: "Answers customers' questions about their Acme Widgets.",
            tag_ids: [DEMO.appTagId],
            site: {
              title: "Acme Support",
              chat_color_theme: "#1C64F2",
              icon: "🛠️",
              description: "Answers questions about Acme Widgets.",
              copyright: "© 2026 Acme",
              privacy_policy: "https://acme.example/privacy",
              input_placeholder: "Ask about your widget…",
            },
            conversations: [
              {
                id: DEMO.conversationId,
                user: DEMO.user,
                variables: [
                  {
                    id: DEMO.variableId,
                    name: "preferred_language",
                    value_type: "string",
                    value: "English",
                    description: "Language to answer in",
                    created_at: T,
                    updated_at: T,
                  },
                  {
                    name: "open_tickets",
                    value_type: "number",
                    value: 2,
                    description: "Tickets still open",
                    created_at: T + 1,
                    updated_at: T,
                  },
                  {
                    name: "products",
                    value_type: "array[string]",
                    value: ["widget-mini"],
                    description: "Products owned",
                    created_at: T + 2,
                    updated_at: T,
                  },
                ],
              },
            ],
          },
          {
            id: DEMO.workflowAppId,
            name: "Release notes writer",
            mode: "workflow",
            site: { title: "Release notes" },
          },
        ],
      },
    ],
  };
}
