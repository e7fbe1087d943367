/**
 * The exact answer format the model is asked for, one per `model.editFormat`. Each ends
 * the user message, where small models pay most attention. The examples use the same
 * file so that the formats can be compared side by side.
 */

export type EditFormat = 'diff' | 'search-replace' | 'json';

export const EDIT_FORMATS: readonly EditFormat[] = ['diff', 'search-replace', 'json'];

const DIFF = `Answer format: one unified diff, every change in it, in a \`\`\`diff fence.
- Start each file with "--- a/PATH" and "+++ b/PATH", PATH relative to the project root.
- Each hunk starts with "@@ -OLD_START,OLD_COUNT +NEW_START,NEW_COUNT @@".
- Give 3 lines of unchanged context before and after each change, copied exactly.
- Lines start with " " (context), "-" (removed) or "+" (added); nothing else.

Example:
\`\`\`diff
--- a/src/main/java/com/acme/Greeter.java
+++ b/src/main/java/com/acme/Greeter.java
@@ -1,6 +1,7 @@
 package com.acme;
 
+import java.util.List;
 import java.util.Map;
 
 public class Greeter {
\`\`\``;

const SEARCH_REPLACE = `Answer format: one or more SEARCH/REPLACE blocks.
- Put the file path, relative to the project root, alone on the line before each block.
- The SEARCH part must copy existing lines exactly, whole lines, indentation included,
  and be just long enough to be unique in the file.
- The REPLACE part holds the lines that take their place.

Example:
src/main/java/com/acme/Greeter.java
\`\`\`java
<<<<<<< SEARCH
import java.util.Map;
=======
import java.util.List;
import java.util.Map;
>>>>>>> REPLACE
\`\`\``;

const JSON_EDITS = `Answer format: only a JSON object, no prose, no fence:
{"summary": "one sentence", "edits": [EDIT, ...]}
where each EDIT is one of
- {"file": PATH, "search": EXACT_EXISTING_LINES, "replace": NEW_LINES}
- {"file": PATH, "op": "insert" | "delete" | "replace", "line": N, "endLine": M, "old": EXACT_EXISTING_LINES, "text": NEW_LINES}
PATH is relative to the project root. "search" copies whole existing lines exactly,
indentation included. "line" numbers refer to the numbered source shown above; "old"
copies lines N..M exactly (for insert: line N, which the text goes before).

Example:
{"summary": "Import List.", "edits": [{"file": "src/main/java/com/acme/Greeter.java", "search": "import java.util.Map;\\n", "replace": "import java.util.List;\\nimport java.util.Map;\\n"}]}`;

export const EDIT_FORMAT_INSTRUCTIONS: Readonly<Record<EditFormat, string>> = {
  diff: DIFF,
  'search-replace': SEARCH_REPLACE,
  json: JSON_EDITS,
};
