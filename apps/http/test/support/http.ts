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
  return { status: response.status, headers: response.headers, body: parsed, text };
}
