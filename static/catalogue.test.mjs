// Unit tests of the node catalogue (catalogue.js) and the edits it makes possible
// (plugedits.js) under node.

import { test } from "node:test";
import assert from "node:assert/strict";
import {
  emptyCatalogue, learn, offer, classCount, fits, template, missing, toJSON, fromJSON, insertAt, placeFor, boundedJSON, classKey, CATALOGUE_FORMAT,
} from "./catalogue.js";
import { addLinked, addParam, removeParam, removeProblem } from "./plugedits.js";
import { createEdits } from "./edits.js";

// A small document: a selector with a child, a producer of values (outputs grouped by type as
// files store them) and a consumer reading them.
const sampleDoc = () => ({
  format: "ainb-editor-document/2", name: "sample.ainb", version: 1031, category: "AI",
  commands: [{ name: "Root", guid: "", root: 0, secondary: -1 }],
  nodes: [
    { id: 0, type: "Sequential", name: "", guid: "g0", x: 0, y: 0, children: [{ node: 2, name: "" }] },
    { id: 1, type: "UserDefined", name: "Producer", guid: "g1", query: true, x: 340, y: 0,
      outputs: [{ name: "OutInt", type: "int" }, { name: "OutInt2", type: "int" }, { name: "OutFloat", type: "float" }] },
    { id: 2, type: "UserDefined", name: "Consumer", guid: "g2", x: 340, y: 200,
      properties: [
        { name: "PInt", type: "int", value: 5 },
        { name: "PBB", type: "float", value: 0, source: { blackboard: 0 } },
        { name: "PStr", type: "string", value: "" },
        { name: "PVec", type: "vec3f", value: [1, 2, 3] },
      ],
      inputs: [
        { name: "InFloat", type: "float", value: 1.5, source: { node: 1, output: 2 } },
        { name: "Multi", type: "int", value: 0, sources: [{ node: 1 }, { node: 1, output: 1 }, {}] },
        { name: "InComp", type: "float", value: 0 },
        { name: "InStr", type: "string", value: "hi" },
      ],
      outputs: [{ name: "Result", type: "int" }],
      queries: [1] },
    { id: 3, type: "UserDefined", name: "Leaf", guid: "g3", x: 340, y: 400 },
  ],
  attachments: [], blackboard: [{ name: "F", type: "float", inherit: "none", value: 0 }],
  expressions: null, modules: [], enumRelocations: [],
});

const docA = () => ({
  format: "ainb-editor-document/2", name: "a.ainb", version: 1031, category: "AI",
  nodes: [
    { id: 0, type: "UserDefined", name: "Wait", guid: "", x: 0, y: 0,
      properties: [{ name: "Time", type: "float", value: 2.5 }],
      inputs: [{ name: "Scale", type: "float", value: 1, source: { node: 1 } }] },
    { id: 1, type: "UserDefined", name: "GetScale", guid: "", query: true, x: 0, y: 0,
      outputs: [{ name: "Out", type: "float" }] },
    { id: 2, type: "Sequential", name: "", guid: "", x: 0, y: 0, children: [{ node: 0, name: "" }] },
  ],
});

const docB = () => ({
  format: "ainb-editor-document/2", name: "b.ainb", version: 1031, category: "Logic",
  nodes: [
    // Wait again, with a parameter a.ainb's node lacks, and Scale now with its own value.
    { id: 0, type: "UserDefined", name: "Wait", guid: "", x: 0, y: 0,
      properties: [{ name: "Loop", type: "bool", value: true }, { name: "Time", type: "float", value: 9 }],
      inputs: [{ name: "Scale", type: "float", value: 0.5 }, { name: "Targets", type: "int", value: 0, sources: [{ node: 1 }] }] },
    { id: 1, type: "UserDefined", name: "Count", guid: "", query: true, x: 0, y: 0,
      outputs: [{ name: "N", type: "int" }, { name: "Ptr", type: "pointer", className: "game::Actor" }] },
  ],
});

test("classes seen in several files merge into one with the union of their plugs", () => {
  const cat = emptyCatalogue();
  assert.equal(learn(cat, docA(), { now: 1 }), 3);
  assert.equal(learn(cat, docB(), { now: 2 }), 2); // Wait grew, Count is new
  assert.deepEqual([...cat.classes.keys()].sort(), ["Count", "GetScale", "Sequential", "Wait"]);
  const w = cat.classes.get("Wait");
  assert.equal(w.count, 2);
  assert.equal(w.files, 2);
  assert.deepEqual(w.categories, ["AI", "Logic"]);
  assert.equal(w.seen, 2);
  // Grouped by type in file order (int, bool, float, string, vec3f, pointer), whatever order
  // they were learned in: the bool learned after the float goes before it, and so does the
  // int multi-input.
  assert.deepEqual(w.properties, [{ name: "Loop", type: "bool", value: true, count: 1 }, { name: "Time", type: "float", value: 2.5, count: 2 }]);
  // Scale was first seen with a source (its value the writer's filler), then with a value.
  assert.deepEqual(w.inputs, [{ name: "Targets", type: "int", value: 0, fromSource: true, multi: true, count: 1 }, { name: "Scale", type: "float", value: 0.5, count: 2 }]);
  assert.deepEqual(cat.classes.get("Sequential").children, [{ name: "", count: 1 }]);
  assert.equal(cat.classes.get("GetScale").query, true);
  // The same file again is not counted twice.
  assert.equal(learn(cat, docA(), { now: 3 }), 0);
  assert.equal(cat.classes.get("Wait").count, 2);
  assert.equal(classKey({ type: "S32Selector", name: "x" }), "S32Selector");
});

test("the palette's offer filters by category and by the link being dragged", () => {
  const cat = emptyCatalogue();
  learn(cat, docA());
  learn(cat, docB());
  const keys = (o) => offer(cat, o).map((c) => c.key);
  // Category Logic: Wait (seen in both) and Count; not GetScale (AI only). Built-in types are
  // offered in every category, seen or not.
  const logic = keys({ category: "Logic" });
  assert.ok(logic.includes("Wait") && logic.includes("Count") && logic.includes("Sequential") && logic.includes("S32Selector"));
  assert.ok(!logic.includes("GetScale"));
  assert.ok(keys({}).includes("GetScale"));
  // From an int output: classes with an int input (Wait's multi-input).
  assert.deepEqual(keys({ link: { side: "out", type: "int" } }), ["Wait"]);
  // From a float input: classes with a float output.
  assert.deepEqual(keys({ link: { side: "in", type: "float" } }), ["GetScale"]);
  // Pointers must agree on the class when both name one.
  assert.deepEqual(keys({ link: { side: "in", type: "pointer", className: "game::Actor" } }), ["Count"]);
  assert.deepEqual(keys({ link: { side: "in", type: "pointer", className: "game::Other" } }), []);
  // From a child plug: anything but queries.
  const kids = keys({ link: { side: "child" } });
  assert.ok(kids.includes("Wait") && kids.includes("Sequential") && !kids.includes("GetScale") && !kids.includes("Count"));
  // For a new child of a node (its + handle, "Add a child"): the same classes.
  assert.deepEqual(keys({ link: { side: "branch", node: 0 } }), kids);
  assert.deepEqual(keys({ query: "loop" }), ["Wait"]);
  assert.equal(fits(cat.classes.get("Wait"), null), true);
});

test("a class's template has every plug with its default and no links", () => {
  const cat = emptyCatalogue();
  learn(cat, docA());
  learn(cat, docB());
  assert.deepEqual(template(cat.classes.get("Wait")), {
    type: "UserDefined", name: "Wait", guid: "",
    properties: [{ name: "Loop", type: "bool", value: true }, { name: "Time", type: "float", value: 2.5 }],
    inputs: [{ name: "Targets", type: "int", value: 0, sources: [] }, { name: "Scale", type: "float", value: 0.5 }],
  });
  assert.deepEqual(template(cat.classes.get("Count")), {
    type: "UserDefined", name: "Count", guid: "", query: true,
    outputs: [{ name: "N", type: "int" }, { name: "Ptr", type: "pointer", className: "game::Actor" }],
  });
  const node = docA().nodes[0];
  assert.deepEqual(missing(cat.classes.get("Wait"), node).map((m) => `${m.list}.${m.plug.name}`), ["properties.Loop", "inputs.Targets"]);
  // Added to the node, they go where the class has them: before the float of the same list.
});

test("the catalogue survives its JSON text, and anything else reads as empty", () => {
  const cat = emptyCatalogue();
  learn(cat, docA(), { now: 5 });
  const back = fromJSON(toJSON(cat));
  assert.deepEqual([...back.classes.keys()], [...cat.classes.keys()]);
  assert.deepEqual(back.classes.get("Wait"), cat.classes.get("Wait"));
  assert.deepEqual([...back.files], [...cat.files]);
  assert.equal(JSON.parse(toJSON(cat)).format, CATALOGUE_FORMAT);
  for (const bad of ["", "{", "null", '{"format":"other","classes":[]}', '{"format":"ainb-editor-catalogue/1","classes":[null,{"key":1}]}']) {
    assert.equal(fromJSON(bad).classes.size, 0, bad);
  }
});

test("insertAt keeps a node's list grouped by type in file order", () => {
  const l = [{ type: "int" }, { type: "float" }, { type: "string" }];
  assert.equal(insertAt(l, "int"), 1);
  assert.equal(insertAt(l, "bool"), 1);
  assert.equal(insertAt(l, "vec3f"), 3);
  assert.equal(insertAt([], "float"), 0);
});

test("a node added from a dragged link is linked in the same undo step", () => {
  const doc = sampleDoc();
  const e = createEdits(doc);
  const before = JSON.stringify(doc);
  const cat = emptyCatalogue();
  learn(cat, docA());
  learn(cat, docB());
  // From Producer's float output (node 1, output 2) to a new Wait: its Scale input reads it.
  const r = addLinked(e, template(cat.classes.get("Wait")), 100, 200, { side: "out", node: 1, index: 2, type: "float" });
  assert.equal(r.ok, true);
  const n = doc.nodes.find((x) => x.id === r.id);
  assert.deepEqual(n.inputs.find((i) => i.name === "Scale").source, { node: 1, output: 2 });
  assert.equal(e.history.done.length, 1);
  assert.equal(e.history.done[0].label, "Add Wait and link it");
  e.undo();
  assert.equal(JSON.stringify(doc), before);
  e.redo();
  assert.deepEqual(doc.nodes.at(-1).inputs.find((i) => i.name === "Scale").source, { node: 1, output: 2 });
  e.undo();
  // Consumer's InStr (a string) has no class with a string output here, so nothing is added
  // and nothing recorded.
  const bad = addLinked(e, template(cat.classes.get("Wait")), 0, 0, { side: "in", node: 2, index: 3, type: "string" });
  assert.equal(bad.ok, false);
  assert.equal(JSON.stringify(doc), before);
  assert.equal(e.history.done.length, 0);
  // A child plug pointed at a new node, and a new branch.
  const c = addLinked(e, template(cat.classes.get("Wait")), 0, 0, { side: "child", node: 0, index: 0 });
  assert.equal(e.history.done.length, 1);
  assert.equal(doc.nodes[0].children[0].node, c.id);
  const b = addLinked(e, template(cat.classes.get("Sequential")), 0, 0, { side: "branch", node: 3 });
  assert.deepEqual(doc.nodes.find((x) => x.id === 3).children, [{ node: b.id, name: "" }]);
  e.undo();
  e.undo();
  assert.equal(JSON.stringify(doc), before);
  // From an input to a new node's output.
  const q = addLinked(e, template(cat.classes.get("GetScale")), 0, 0, { side: "in", node: 2, index: 2, type: "float" });
  assert.deepEqual(doc.nodes.find((x) => x.id === 2).inputs[2].source, { node: q.id });
});

test("adding and removing parameters keeps references to the node's plugs right", () => {
  const doc = sampleDoc();
  doc.enumRelocations = [{ className: "E", valueName: "V", target: { node: 2, property: 3 } }];
  const e = createEdits(doc);
  const before = JSON.stringify(doc);
  // Producer (#1) gains an int output after OutInt2: Consumer's InFloat reads output 2, which
  // moves to 3; the multi-input's sources of the ints before it stay.
  const r = addParam(e, 1, "outputs", { name: "Extra", type: "int" });
  assert.deepEqual(r, { ok: true, index: 2 });
  const consumer = doc.nodes.find((x) => x.id === 2);
  assert.deepEqual(consumer.inputs[0].source, { node: 1, output: 3 });
  assert.deepEqual(consumer.inputs[1].sources, [{ node: 1 }, { node: 1, output: 1 }, {}]);
  assert.equal(doc.nodes.find((x) => x.id === 1).outputs[2].name, "Extra");
  assert.equal(addParam(e, 1, "outputs", { name: "Extra", type: "int" }).ok, false);
  // A property added before the relocated one moves the relocation's index.
  addParam(e, 2, "properties", { name: "PBool", type: "bool", value: true });
  assert.equal(consumer.properties[1].name, "PBool");
  assert.equal(consumer.properties[1].value, true);
  assert.equal(doc.enumRelocations[0].target.property, 4);
  e.undo();
  e.undo();
  assert.equal(JSON.stringify(doc), before);
  // In-use parameters stay.
  assert.match(removeProblem(e, 1, "outputs", 2), /feeds #2.InFloat/);
  assert.match(removeProblem(e, 1, "outputs", 1), /feeds #2.Multi/);
  assert.match(removeProblem(e, 2, "inputs", 0), /source/);
  assert.match(removeProblem(e, 2, "properties", 3), /enum relocation E::V/);
  // An unused output goes, and later references shift down.
  assert.equal(removeParam(e, 2, "outputs", 0).ok, true);
  assert.equal(consumer.outputs, undefined);
  assert.equal(removeParam(e, 2, "properties", 0).ok, true);
  assert.equal(doc.enumRelocations[0].target.property, 2);
  assert.equal(removeParam(e, 2, "inputs", 0).ok, false);
  e.undo();
  e.undo();
  assert.equal(JSON.stringify(doc), before);
});

test("a class's parameter added to a node goes where the class has it", () => {
  const cls = [{ name: "A", type: "string" }, { name: "B", type: "string" }, { name: "C", type: "string" }, { name: "I", type: "int" }];
  assert.equal(placeFor(cls, [{ name: "A", type: "string" }, { name: "C", type: "string" }], cls[1]), 1);
  assert.equal(placeFor(cls, [{ name: "B", type: "string" }, { name: "C", type: "string" }], cls[0]), 0);
  assert.equal(placeFor(cls, [{ name: "X", type: "int" }, { name: "C", type: "string" }], cls[3]), 1);
  assert.equal(placeFor(undefined, [{ name: "X", type: "int" }, { name: "C", type: "string" }], { name: "F", type: "float" }), 1);
});

test("the stored text stays within its bound, dropping the classes seen longest ago", () => {
  const cat = emptyCatalogue();
  for (let k = 0; k < 50; k++) {
    learn(cat, { name: `f${k}.ainb`, version: 1031, category: "AI", nodes: [{ id: 0, type: "UserDefined", name: `C${k}`, properties: [{ name: "P", type: "int", value: k }] }] }, { now: k });
  }
  const full = toJSON(cat).length;
  const text = boundedJSON(cat, Math.floor(full / 2));
  assert.ok(text.length <= full / 2, `${text.length} > ${full / 2}`);
  const kept = [...fromJSON(text).classes.keys()];
  assert.ok(kept.length >= 10 && kept.length < 50, `${kept.length} kept`);
  assert.deepEqual(kept, Array.from({ length: kept.length }, (_, i) => `C${50 - kept.length + i}`));
  assert.equal(boundedJSON(emptyCatalogue(), 10).length > 10, true); // an empty catalogue is what it is
});

test("classCount is what offer gives with nothing filtered: learned classes and every built-in type", () => {
  const cat = emptyCatalogue();
  // 26 built-in types, UserDefined aside: a class is a user-defined one's name.
  assert.equal(classCount(cat), 26);
  assert.equal(classCount(cat), offer(cat).length);
  learn(cat, sampleDoc(), { name: "sample.ainb" });
  // Producer, Consumer and Leaf are new; Sequential was offered already as a built-in type.
  assert.equal(classCount(cat), 29);
  assert.equal(classCount(cat), offer(cat).length);
  // A filter offers fewer (the palette says "26 of 29 classes"); the count stays.
  assert.equal(offer(cat, { category: "Sequence" }).length, 26);
});
