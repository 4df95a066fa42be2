/** One problem of an import file, at a JSON path such as `workspaces[0].datasets[2].name`. */
export interface ImportIssue {
  path: string;
  message: string;
}

/** The file cannot be imported; nothing was written. */
export class InvalidImportError extends Error {
  constructor(readonly issues: readonly ImportIssue[]) {
    super(
      `The import file has ${issues.length} problem${issues.length === 1 ? "" : "s"}:\n${formatIssues(issues)}`,
    );
  }
}

export function formatIssues(issues: readonly ImportIssue[]): string {
  return issues.map((issue) => `  ${issue.path || "(file)"}: ${issue.message}`).join("\n");
}

/** `["workspaces", 0, "name"]` → `workspaces[0].name`. */
export function pathOf(segments: readonly PropertyKey[]): string {
  return segments.reduce<string>((path, segment) => {
    if (typeof segment === "number") return `${path}[${segment}]`;
    const key = String(segment);
    const plain = /^[A-Za-z_$][\w$]*$/.test(key);
    if (!plain) return `${path}[${JSON.stringify(key)}]`;
    return path === "" ? key : `${path}.${key}`;
  }, "");
}
