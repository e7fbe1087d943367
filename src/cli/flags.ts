// STUB owned by the wrapper work (issue 2).
/** Parsed `--mvnx-NAME[=VALUE]` flags: name without the prefix -> value (true when bare). */
export type MvnxFlags = Record<string, string | true>;
