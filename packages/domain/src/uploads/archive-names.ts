/**
 * Names for files in one archive, in order: each file's own, with `/`, `\` and `:` made `_` (an
 * entry never leaves the archive's root, nor names a drive) and an empty one `file`; a name taken already gets ` (2)`,
 * ` (3)`… before its extension, whichever is free.
 */
export function archiveNames(names: readonly string[]): string[] {
  const taken = new Set<string>();
  return names.map((raw) => {
    const name = raw.replace(/[/\\:]/g, "_").replace(/^\.+$/, "_") || "file";
    let unique = name;
    const dot = name.lastIndexOf(".");
    const [stem, extension] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ""];
    for (let copy = 2; taken.has(unique.toLowerCase()); copy += 1) unique = `${stem} (${copy})${extension}`;
    taken.add(unique.toLowerCase());
    return unique;
  });
}
