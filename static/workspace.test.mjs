// Unit tests of sessions and the workspace (session.js, workspace.js) under node.

import { test } from "node:test";
import assert from "node:assert/strict";
import { Session, LOOSE, FOLDER } from "./session.js";
import { Workspace, discardQuestion } from "./workspace.js";
import { Tx } from "./history.js";

const graph = (path, hash, group = FOLDER) => new Session({ kind: "ainb", group, path, name: path.split("/").pop(), doc: { nodes: [{ id: 0, x: 0, y: 0 }] }, hash });

// One recorded edit on the session's document.
function edit(s) {
  const tx = new Tx("Move #0");
  tx.set(s.doc.nodes[0], "x", s.doc.nodes[0].x + 10);
  s.history.push({ label: tx.label, ops: tx.ops });
}

function workspace(answers = []) {
  const asked = [], dropped = [];
  const ws = new Workspace({ confirm: (q) => (asked.push(q), answers.shift() ?? false), dropped: (s) => dropped.push(s.key) });
  return { ws, asked, dropped };
}

test("a session names its file by group and path, and its edits make it unsaved until saved", () => {
  const s = graph("AI/a.root.ainb", "h1");
  assert.equal(s.key, "folder:AI/a.root.ainb");
  assert.equal(s.name, "a.root.ainb");
  assert.equal(s.graph, true);
  assert.equal(s.dirty(), false);
  let heard = 0;
  s.onChange = () => heard++;
  edit(s);
  assert.equal(s.dirty(), true);
  assert.equal(heard, 1);
  s.problems = [{ node: 0, path: "", message: "x" }];
  s.saved("h2");
  assert.deepEqual([s.dirty(), s.hash, s.problems], [false, "h2", []]);
  assert.equal(s.sameFile("h2"), true);
  assert.equal(s.sameFile("h1"), false);
  assert.equal(s.sameFile(""), false);
  const restored = new Session({ kind: "ainb", path: "x.ainb", doc: { nodes: [] }, dirty: true });
  assert.deepEqual([restored.group, restored.name, restored.dirty(), restored.zstd], [LOOSE, "x.ainb", true, null]);
});

test("a session is reused only for the bytes it came from, and only with unsaved edits", () => {
  const { ws } = workspace();
  const s = ws.add(graph("a.ainb", "h1"));
  assert.equal(ws.reusable(FOLDER, "a.ainb", "h1"), null, "no edits: the file is read anew");
  edit(s);
  assert.equal(ws.reusable(FOLDER, "a.ainb", "h1"), s);
  assert.equal(ws.reusable(FOLDER, "a.ainb", "h9"), null, "other bytes under the same name");
  assert.equal(ws.reusable(LOOSE, "a.ainb", "h1"), null, "the same path in another group");
});

test("release asks once about every unsaved session it would drop, and drops nothing when refused", () => {
  const { ws, asked, dropped } = workspace([false, true]);
  const a = ws.add(graph("a.ainb", "h1")), b = ws.add(graph("b.ainb", "h2")), c = ws.add(graph("c.ainb", "h3"));
  const loose = ws.add(graph("l.ainb", "h4", LOOSE));
  edit(a);
  edit(c);
  edit(loose);
  ws.activate(b);
  assert.deepEqual(ws.edited((s) => s.group === FOLDER), ["a.ainb", "c.ainb"]);
  assert.equal(ws.release((s) => s.group === FOLDER), false);
  assert.deepEqual(asked, ["Discard the unsaved edits of a.ainb, c.ainb?"]);
  assert.equal(ws.sessions.size, 4);
  assert.equal(ws.release((s) => s.group === FOLDER), true);
  assert.equal(asked.length, 2);
  assert.deepEqual(dropped, ["folder:a.ainb", "folder:b.ainb", "folder:c.ainb"]);
  assert.deepEqual(ws.list().map((s) => s.key), ["file:l.ainb"]);
  assert.equal(ws.active, null, "the shown session went with its folder");
  assert.equal(ws.dirty(), true);
});

test("release without unsaved edits, or told not to ask, asks nothing", () => {
  const { ws, asked } = workspace();
  ws.add(graph("a.ainb", "h1"));
  assert.equal(ws.release(() => true), true);
  const b = ws.add(graph("b.ainb", "h1"));
  edit(b);
  assert.equal(ws.release(() => true, { ask: false }), true);
  assert.deepEqual([asked, ws.sessions.size], [[], 0]);
});

test("a new session of the same file replaces the old one, which is dropped", () => {
  const { ws, dropped } = workspace();
  const old = ws.add(graph("a.ainb", "h1"));
  ws.activate(old);
  const fresh = graph("a.ainb", "h2");
  ws.activate(fresh);
  assert.deepEqual([ws.get(FOLDER, "a.ainb"), ws.active, dropped], [fresh, fresh, ["folder:a.ainb"]]);
  assert.equal(discardQuestion(["x"]), "Discard the unsaved edits of x?");
});
