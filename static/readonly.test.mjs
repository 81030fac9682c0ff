// The read-only mode of the embed (/e/{id}): every edit is refused where all edits pass
// (history.js), and the document comes back exactly as it was.

import { test } from "node:test";
import assert from "node:assert/strict";
import { createEdits } from "./edits.js";
import { setReadOnly, isReadOnly } from "./history.js";

function sampleDoc() {
  return {
    format: "ainb-editor-document/2", name: "ro.ainb", version: 1031, filename: "Ro", category: "AI",
    commands: [{ name: "Root", guid: "00000000-0000-4000-8000-000000000001", root: 0, secondary: -1 }],
    nodes: [
      { id: 0, type: "Sequential", name: "", guid: "g0", x: 0, y: 0, children: [{ node: 1, name: "a" }, { node: 2, name: "b" }] },
      { id: 1, type: "UserDefined", name: "Wait", guid: "g1", x: 340, y: 0 },
      { id: 2, type: "UserDefined", name: "Run", guid: "g2", x: 340, y: 100 },
    ],
    attachments: [], blackboard: [], expressions: null, modules: [], replacements: [], enumRelocations: [],
  };
}

test("a read-only page refuses every edit and keeps the document as it was", (t) => {
  t.after(() => setReadOnly(false));
  const doc = sampleDoc();
  const before = JSON.stringify(doc);
  const heard = [];
  const edits = createEdits(doc, { onChange: (cmd, how) => heard.push([cmd.label, how]) });
  setReadOnly(true);
  assert.equal(isReadOnly(), true);
  edits.renameNode(1, "Renamed");
  edits.removeChild(0, 0);
  edits.group("Add and link", () => edits.addNode({ type: "Sequential" }, 900, 900));
  // A drag moves nodes live and records the move when let go.
  doc.nodes[2].x += 100;
  edits.moved([[doc.nodes[2].id, doc.nodes[2].x - 100, doc.nodes[2].y]]);
  assert.equal(JSON.stringify(doc), before);
  assert.equal(edits.history.done.length, 0);
  assert.equal(edits.undo(), null);
  assert.deepEqual(heard.map((h) => h[1]), ["refused", "refused", "refused", "refused"]);

  setReadOnly(false);
  edits.renameNode(1, "Renamed");
  assert.equal(doc.nodes[1].name, "Renamed");
  assert.equal(edits.history.done.length, 1);
});
