import { difyContractProblems, servedContractProblems } from "./contracts.js";

/** A response with its body read: JSON when it is JSON, else the text. */
export interface ApiResponse {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: tests read response bodies freely.
  body: any;
  text: string;
}

export interface RequestOptions {
  token?: string;
  body?: unknown;
  /** A body sent as is, with no JSON encoding. */
  rawBody?: string | Uint8Array;
  headers?: Record<string, string>;
  /** False for a call whose answer is not the API's (a server mounted elsewhere, say). */
  checkContracts?: boolean;
}

/** Calls the server like any HTTP client would. */
export async function call(
  baseUrl: string,
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  let body: string | Uint8Array | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["content-type"] ??= "application/json";
  }
  const response = await fetch(`${baseUrl}${path}`, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  if (response.headers.get("content-type")?.includes("application/json")) parsed = JSON.parse(text);
  if (options.checkContracts !== false) await checkContracts(baseUrl, method, path, response.status, parsed);
  return { status: response.status, headers: response.headers, body: parsed, text };
}

/**
 * Every response an API test receives is held to the OpenAPI document the server serves (its
 * status documented, its body fitting the schema), and a success also to Dify's published schema
 * where Dify has the operation.
 */
async function checkContracts(baseUrl: string, method: string, path: string, status: number, body: unknown) {
  const route = path.split("?")[0]!;
  if (!route.startsWith("/v1/")) return;
  const problems = [
    ...(await servedContractProblems(baseUrl, method, route, status, body)),
    ...difyContractProblems(method, route, status, body),
  ];
  if (problems.length > 0)
    throw new Error(
      `${method} ${path} → ${status} breaks a contract:\n  ${problems.join("\n  ")}\n${JSON.stringify(body)}`,
    );
}
