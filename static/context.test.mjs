// Unit tests of the collaborators' contexts (context.js) under node: a context reads
// through to the editor, writes only what it declares, and every module's EDITOR_NEEDS is
// exactly the editor members its source uses.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { narrow, usedMembers } from "./context.js";

test("a context reads fields through, binds methods, and sets only what it declares", () => {
  class Ed {
    constructor() {
      this.doc = { nodes: [] };
      this.hover = null;
      this.secret = 1;
    }
    get name() {
      return "a.ainb";
    }
    count() {
      return this.doc.nodes.length;
    }
  }
  const ed = new Ed();
  const ctx = narrow(ed, ["doc", "name", "count", "hover="]);
  assert.deepEqual(Object.keys(ctx).sort(), ["count", "doc", "hover", "name"]);
  ed.doc = { nodes: [1, 2] };
  assert.equal(ctx.doc, ed.doc, "a field follows the editor");
  assert.equal(ctx.count(), 2, "a method runs on the editor");
  assert.equal(ctx.name, "a.ainb");
  ctx.hover = { node: 3 };
  assert.deepEqual(ed.hover, { node: 3 });
  assert.equal(ctx.secret, undefined);
  assert.throws(() => {
    ctx.doc = null;
  }, TypeError);
  assert.throws(() => {
    ctx.secret = 2;
  }, TypeError);
  assert.equal(ed.secret, 1);
});

test("usedMembers finds reads and writes of ed.NAME", () => {
  const src = "const ed = this.ed; ed.view.x = 1; this.ed.hover = h; if (ed.connect === null) ed.status(`${ed.name}`); a.speed.x;";
  assert.deepEqual(usedMembers(src), ["connect", "hover=", "name", "status", "view"]);
});

// The editor hands each of these modules a context of exactly its EDITOR_NEEDS.
const MODULES = ["edits.js", "input.js", "inspector.js", "panels.js", "render.js", "contextmenu.js", "picker.js", "palette.js", "shape.js",
  "cataloguestore.js", "folder.js", "packs.js", "treefiles.js", "tree.js", "treeyaml.js", "exprcode.js", "compareview.js"];
// Modules made by another with its own context: what they use must be in their maker's.
const MADE_BY = { "tree.js": "treefiles.js", "treeyaml.js": "tree.js" };

function needsOf(file) {
  const src = readFileSync(new URL(file, import.meta.url), "utf8");
  const m = /^export const EDITOR_NEEDS = (\[[^\]]*\]);$/m.exec(src);
  assert.ok(m, `${file} declares no EDITOR_NEEDS`);
  return { src, needs: JSON.parse(m[1]) };
}

test("every module's EDITOR_NEEDS is exactly what it uses of the editor", () => {
  for (const file of MODULES) {
    const { src, needs } = needsOf(file);
    assert.deepEqual([...needs].sort(), usedMembers(src), file);
  }
  for (const [file, maker] of Object.entries(MADE_BY)) {
    const have = new Set(needsOf(maker).needs);
    for (const n of needsOf(file).needs) assert.ok(have.has(n), `${file} needs ${n}, which ${maker}'s context lacks`);
  }
});

test("the collaborators' contexts leave the editor's inner state out", () => {
  // The canvas's own state stays the editor's: no collaborator reaches the workspace's
  // sessions but the modules that open and save files (compareview.js opens the other
  // version of the shown file by its path).
  for (const file of MODULES) {
    const { needs } = needsOf(file);
    if (!["folder.js", "packs.js", "treefiles.js", "compareview.js"].includes(file)) assert.ok(!needs.includes("workspace") && !needs.includes("session"), file);
    assert.ok(!needs.includes("noHistory") && !needs.includes("paletteContext"), file);
  }
});
