import { createHash, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import Database from "better-sqlite3";

/**
 * The floor: the least a server on this stack can do for the five operations. node:http, prepared
 * better-sqlite3 statements, the same key-hash lookup and checks, the same reads and writes, the
 * same JSON bodies; no framework, no layers. Benchmark only: it trusts its input far too much.
 * The database work is ours too: each request's reads in one read transaction, ended before a
 * write, and every parameter written `+?`, which keeps SQLite from planning a statement again at
 * each run (see adapters-sqlite's `SharedReadTransaction` and `PlannedOnceSqliteDialect`).
 * Usage: node floor-server.js <sqlite file> <port> [mmap size in bytes]
 */
const [path, port, mmapSizeBytes = "0"] = process.argv.slice(2);
const db = new Database(path!);
db.pragma("journal_mode = WAL");
db.pragma("busy_timeout = 5000");
db.pragma("foreign_keys = ON");
db.pragma(`mmap_size = ${Number(mmapSizeBytes)}`);
const q = {
  key: db.prepare("select * from api_keys where token_hash = +?"),
  workspace: db.prepare("select status from workspaces where id = +?"),
  app: db.prepare("select * from apps where id = +?"),
  dataset: db.prepare("select * from datasets where id = +? and workspace_id = +?"),
  document: db.prepare("select * from documents where id = +? and dataset_id = +?"),
  file: db.prepare("select * from upload_files where id = +?"),
  stats: db.prepare(
    "select count(*) as count, coalesce(sum(hit_count), 0) as hits, coalesce(sum(char_count), 0) as chars from chunks where document_id = +?",
  ),
  values: db.prepare(
    `select f.id, f.name, f.type, v.value from document_metadata_values v join metadata_fields f on f.id = v.field_id
     where v.document_id = +? order by f.created_at, f.position, f.id`,
  ),
  member: db.prepare("select name from members where id = +? and workspace_id = +?"),
  fields: db.prepare(
    "select id, name, type, document_count from metadata_fields where dataset_id = +? order by created_at, position, id",
  ),
  tags: db.prepare("select id, workspace_id, type from tags where id in (+?, +?)"),
  bind: db.prepare(
    "insert into tag_bindings (id, workspace_id, tag_id, target_id, created_at) values (+?, +?, +?, +?, +?) on conflict (tag_id, target_id) do nothing",
  ),
  endUser: db.prepare("select id from end_users where app_id = +? and session_id = +?"),
  conversation: db.prepare("select * from conversations where id = +? and app_id = +?"),
  variable: db.prepare("select * from conversation_variables where conversation_id = +? and id = +?"),
  update: db.prepare(
    "update conversation_variables set value = +?, updated_at = +? where conversation_id = +? and id = +? returning *",
  ),
  site: db.prepare("select * from sites where app_id = +?"),
};
const begin = db.prepare("begin");
const commit = db.prepare("commit");
/** Before a write: the request's reads are over; the write commits on its own. */
const endReads = () => {
  if (db.inTransaction) commit.run();
};
type Row = Record<string, unknown>;

function authenticate(request: IncomingMessage, kind: "app" | "dataset"): Row | undefined {
  const token = request.headers.authorization?.slice(7) ?? "";
  const hash = createHash("sha256").update(token).digest("hex");
  const key = q.key.get(hash) as Row | undefined;
  if (!key || key.kind !== kind) return undefined;
  if (!timingSafeEqual(Buffer.from(hash, "hex"), Buffer.from(String(key.token_hash), "hex")))
    return undefined;
  if ((q.workspace.get(key.workspace_id) as Row | undefined)?.status !== "normal") return undefined;
  return key;
}

const send = (response: ServerResponse, status: number, body?: unknown) => {
  const text = body === undefined ? "" : JSON.stringify(body);
  response.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
  });
  response.end(text);
};

function getDocument(key: Row, datasetId: string, documentId: string, response: ServerResponse) {
  const dataset = q.dataset.get(datasetId, key.workspace_id) as Row | undefined;
  if (!dataset) return send(response, 404, { status: 404, code: "not_found", message: "Dataset not found." });
  const document = q.document.get(documentId, datasetId) as Row | undefined;
  if (!document)
    return send(response, 404, { status: 404, code: "not_found", message: "Document not found." });
  const file = document.upload_file_id ? (q.file.get(document.upload_file_id) as Row | undefined) : undefined;
  const stats = q.stats.get(documentId) as { count: number; hits: number; chars: number };
  const metadata = q.values.all(documentId) as Row[];
  const member = q.member.get(document.created_by, key.workspace_id) as Row | undefined;
  for (const [name, type, value] of [
    ["document_name", "string", document.name],
    ["uploader", "string", member?.name ?? null],
    ["upload_date", "time", String(document.created_at)],
    ["last_update_date", "time", String(document.updated_at ?? document.created_at)],
    ["source", "string", "file_upload"],
  ]) {
    metadata.push({ id: "built-in", name, type, value });
  }
  send(response, 200, {
    id: document.id,
    position: document.position,
    data_source_type: document.data_source_type,
    data_source_info: file
      ? {
          upload_file: {
            id: file.id,
            name: file.name,
            size: file.size,
            extension: file.extension,
            mime_type: file.mime_type,
            created_by: file.created_by,
            created_at: file.created_at,
          },
        }
      : {},
    dataset_process_rule_id: document.process_rule_id,
    dataset_process_rule: {
      id: dataset.process_rule_id,
      mode: dataset.process_rule_mode,
      rules: JSON.parse(String(dataset.process_rule_rules)),
    },
    document_process_rule: {
      id: document.process_rule_id,
      mode: document.process_rule_mode,
      rules: JSON.parse(String(document.process_rule_rules)),
    },
    name: document.name,
    created_from: document.created_from,
    created_by: document.created_by,
    created_at: document.created_at,
    tokens: document.tokens,
    indexing_status: document.indexing_status,
    error: document.error,
    enabled: document.enabled === 1,
    disabled_at: document.disabled_at,
    disabled_by: document.disabled_by,
    archived: document.archived === 1,
    display_status: "available",
    hit_count: stats.hits,
    doc_form: document.doc_form,
    doc_language: document.doc_language,
    doc_type: document.doc_type,
    doc_metadata: metadata,
    completed_at: document.completed_at,
    updated_at: document.updated_at,
    indexing_latency: document.indexing_latency,
    segment_count: stats.count,
    average_segment_length: stats.count ? Math.floor(stats.chars / stats.count) : 0,
    summary_index_status: document.summary_index_status,
    need_summary: document.need_summary === 1,
  });
}

function listFields(key: Row, datasetId: string, response: ServerResponse) {
  const dataset = q.dataset.get(datasetId, key.workspace_id) as Row | undefined;
  if (!dataset) return send(response, 404, { status: 404, code: "not_found", message: "Dataset not found." });
  const fields = (q.fields.all(datasetId) as Row[]).map(({ id, name, type, document_count }) => ({
    id,
    name,
    type,
    count: document_count,
  }));
  for (const name of ["document_name", "uploader", "upload_date", "last_update_date", "source"]) {
    fields.push({
      id: "built-in",
      name,
      type: name.endsWith("date") ? "time" : "string",
      count: dataset.document_count,
    });
  }
  send(response, 200, { doc_metadata: fields, built_in_field_enabled: dataset.built_in_field_enabled === 1 });
}

function bindTags(key: Row, body: { tag_ids: string[]; target_id: string }, response: ServerResponse) {
  const dataset = q.dataset.get(body.target_id, key.workspace_id) as Row | undefined;
  if (!dataset) return send(response, 404, { status: 404, code: "not_found", message: "Dataset not found" });
  const tags = q.tags.all(body.tag_ids[0], body.tag_ids[1] ?? body.tag_ids[0]) as Row[];
  const now = Math.floor(Date.now() / 1000);
  endReads();
  for (const tag of tags) {
    if (tag.workspace_id === key.workspace_id && tag.type === "knowledge") {
      q.bind.run(crypto.randomUUID(), key.workspace_id, tag.id, dataset.id, now);
    }
  }
  send(response, 204);
}

function updateVariable(
  key: Row,
  conversationId: string,
  variableId: string,
  body: { value: unknown; user: string },
  response: ServerResponse,
) {
  const app = q.app.get(key.app_id) as Row;
  if (app.mode !== "advanced-chat" && app.mode !== "chat" && app.mode !== "agent-chat")
    return send(response, 400, {});
  const endUser = q.endUser.get(app.id, body.user) as Row | undefined;
  const conversation = q.conversation.get(conversationId, app.id) as Row | undefined;
  if (!endUser || !conversation || conversation.end_user_id !== endUser.id) {
    return send(response, 404, { status: 404, code: "not_found", message: "Conversation Not Exists." });
  }
  const variable = q.variable.get(conversationId, variableId) as Row | undefined;
  if (!variable) return send(response, 404, {});
  if (typeof body.value !== "string") return send(response, 400, {});
  endReads();
  const row = q.update.get(
    JSON.stringify(body.value),
    Math.floor(Date.now() / 1000),
    conversationId,
    variableId,
  ) as Row;
  send(response, 200, {
    id: row.id,
    name: row.name,
    value_type: row.value_type,
    value: JSON.parse(String(row.value)),
    description: row.description,
    created_at: row.created_at,
    updated_at: row.updated_at,
  });
}

function getSite(key: Row, response: ServerResponse) {
  const app = q.app.get(key.app_id) as Row | undefined;
  if (app?.enable_api !== 1) return send(response, 403, {});
  const site = q.site.get(app.id) as Row | undefined;
  if (!site) return send(response, 403, {});
  send(response, 200, {
    title: site.title,
    chat_color_theme: site.chat_color_theme,
    chat_color_theme_inverted: site.chat_color_theme_inverted === 1,
    icon_type: site.icon_type,
    icon: site.icon,
    icon_background: site.icon_background,
    icon_url: null,
    description: site.description,
    copyright: site.copyright,
    privacy_policy: site.privacy_policy,
    input_placeholder: site.input_placeholder,
    custom_disclaimer: site.custom_disclaimer,
    default_language: site.default_language,
    show_workflow_steps: site.show_workflow_steps === 1,
    use_icon_as_answer_icon: site.use_icon_as_answer_icon === 1,
  });
}

const unauthorized = (response: ServerResponse) =>
  send(response, 401, { status: 401, code: "unauthorized", message: "Access token is invalid" });

createServer((request, response) => {
  const url = request.url ?? "/";
  const parts = url.split("?")[0]!.split("/");
  let raw = "";
  request.on("data", (chunk) => {
    raw += chunk;
  });
  request.on("end", () => {
    try {
      begin.run();
      serve(request, response, url, parts, raw);
    } finally {
      endReads();
    }
  });
}).listen(Number(port), "127.0.0.1", () => process.send?.("listening"));

function serve(
  request: IncomingMessage,
  response: ServerResponse,
  url: string,
  parts: string[],
  raw: string,
) {
  if (request.method === "GET" && parts[2] === "datasets" && parts[4] === "documents") {
    const key = authenticate(request, "dataset");
    return key ? getDocument(key, parts[3]!, parts[5]!, response) : unauthorized(response);
  }
  if (request.method === "GET" && parts[2] === "datasets" && parts[4] === "metadata") {
    const key = authenticate(request, "dataset");
    return key ? listFields(key, parts[3]!, response) : unauthorized(response);
  }
  if (request.method === "POST" && url === "/v1/datasets/tags/binding") {
    const key = authenticate(request, "dataset");
    return key ? bindTags(key, JSON.parse(raw), response) : unauthorized(response);
  }
  if (request.method === "PUT" && parts[2] === "conversations") {
    const key = authenticate(request, "app");
    return key
      ? updateVariable(key, parts[3]!, parts[5]!, JSON.parse(raw), response)
      : unauthorized(response);
  }
  if (request.method === "GET" && url === "/v1/site") {
    const key = authenticate(request, "app");
    return key ? getSite(key, response) : unauthorized(response);
  }
  send(response, 404, { status: 404, code: "not_found", message: "Not found" });
}
