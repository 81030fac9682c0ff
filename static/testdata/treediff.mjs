// Runs the tree view's diff (treediff.js) over two BYML or AAMP JSON forms and prints each
// change as "op path", one per line, for treediff_node_test.go to hold against the Go diff.
// Usage: node treediff.mjs kind old.json new.json

import { readFileSync } from "node:fs";
import { diffTrees, MAX_CHANGES } from "../treediff.js";
import { linkShared } from "../treemodel.js";

const [kind, oldPath, newPath] = process.argv.slice(2);
const read = (p) => {
  const doc = JSON.parse(readFileSync(p, "utf8"));
  return kind === "byml" ? linkShared(doc) : doc;
};
const r = diffTrees(kind, read(oldPath), read(newPath));
if (r.changes.length >= MAX_CHANGES) throw new Error("the diff stopped at its cap");
process.stdout.write(r.changes.map((c) => `${c.op} ${c.path}\n`).join(""));
