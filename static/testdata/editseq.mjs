// Randomized edit sequences over real documents, driven through the page's own edit module
// (../edits.js, the code the browser runs). Run by TestRandomEditSequences (editseq_test.go),
// which builds every result in Go and checks it. Not embedded in the server (static/embed.go
// embeds only the top-level *.js files).
//
// Usage: node editseq.mjs MANIFEST.json
// The manifest is {"out": dir, "jobs": [{"name", "doc", "foreign", "seeds": [...], "ops": n}]}:
// doc is a document JSON file, foreign another one to paste from. For each job and seed the
// script writes out/NAME.SEED.json: {"seed", "log": [...], "applied": n, "document": text,
// "invalid": text?}, where document is JSON.stringify of the edited document (what the page
// saves) and invalid, when the document has expressions, the same document with one function
// made unassemblable (Go must refuse it with a problem on that function's text).

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createEdits } from "../edits.js";
import { NODE_TYPES, BLACKBOARD_TYPES, isSelector, nodeFrom, builtinNode } from "../model.js";
import { emptyCatalogue, learn, classKey, missing, fits, template as classTemplate } from "../catalogue.js";
import { addParam, removeParam, addLinked } from "../plugedits.js";

// ---- seeded randomness (mulberry32)

function rng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const r = {
    next,
    int: (n) => Math.floor(next() * n),
    chance: (p) => next() < p,
    pick: (arr) => (arr.length ? arr[Math.floor(next() * arr.length)] : undefined),
  };
  return r;
}

// ---- what the sequences draw from

const INTS = [0, 1, -1, 7, 2147483647, -2147483648, 99999999999, -99999999999, 65535, 65536, "12", "0x10"];
const FLOATS = [0, 1.5, -2.25, 1.1, NaN, Infinity, -Infinity, -0, "-0", "nan", "inf", "0x7fc00001", "0xffc12345",
  3.4028234663852886e38, 1e40, 1e-45, 1e-40, "0x80000000", 16777217, Math.PI];
const U32S = [0, 1, 4294967295, 4000000000, 2147483648, -1, 1e12];
const ODD_NAMES = ["", " ", "  x  ", "Ünïcødé_名前", "🦀 crab", "e\u0301", "name with spaces", "a".repeat(300), "\t", "é", "日本語", "Root", "x.y::z"];

// Every string of the document a name may be built from: names of nodes, values, children,
// commands, blackboard parameters, class names and string values.
function docStrings(doc) {
  const out = new Set();
  const add = (s) => typeof s === "string" && s.length && out.add(s);
  const owner = (o) => {
    for (const key of ["properties", "inputs", "outputs"]) {
      for (const p of o[key] || []) {
        add(p.name);
        add(p.className);
        if (p.type === "string") add(p.value);
      }
    }
  };
  for (const n of doc.nodes) {
    add(n.name);
    owner(n);
    for (const c of n.children || []) add(c.name);
    for (const j of n.jumps || []) add(j.command);
  }
  for (const a of doc.attachments || []) {
    add(a.name);
    owner(a);
  }
  for (const c of doc.commands || []) add(c.name);
  for (const p of doc.blackboard || []) add(p.name);
  add(doc.filename);
  return [...out];
}

// A name: fresh, a tail or prefix of an existing string (the cases a string pool that shares
// tails gets wrong), an existing string itself, or an odd one (empty, blank, unicode, long).
function makeName(r, doc, state) {
  const k = r.int(10);
  if (k < 2) return `Fresh_${state.fresh++}_${r.int(1000)}`;
  if (k < 7) {
    if (!state.strings || r.chance(0.1)) state.strings = docStrings(doc);
    const s = r.pick(state.strings.filter((x) => [...x].length >= 2)) || "ab";
    const chars = [...s];
    if (k < 5) return chars.slice(1 + r.int(Math.min(chars.length - 1, 4))).join(""); // a tail
    if (k < 6) return chars.slice(0, 1 + r.int(chars.length - 1)).join(""); // a prefix
    return s;
  }
  return r.pick(ODD_NAMES);
}

function valueFor(r, type, doc, state) {
  switch (type) {
    case "int": return r.chance(0.7) ? r.pick(INTS) : r.int(2000) - 1000;
    case "u32": return r.pick(U32S);
    case "bool": return r.chance(0.5);
    case "float": return r.chance(0.7) ? r.pick(FLOATS) : (r.next() - 0.5) * 1e4;
    case "string": return makeName(r, doc, state);
    case "vec3f": return [r.pick(FLOATS), r.pick(FLOATS), r.pick(FLOATS)];
  }
  return 0;
}

// ---- picking parts of the document

function nodeWith(r, doc, pred, tries = 40) {
  const nodes = doc.nodes;
  if (!nodes.length) return null;
  for (let t = 0; t < tries; t++) {
    const n = nodes[r.int(nodes.length)];
    if (pred(n)) return n;
  }
  return null;
}

// A ref to a property or input (of a node or an attachment), with the item it names.
function pickItem(r, doc, lists = ["properties", "inputs"]) {
  if ((doc.attachments || []).length && lists.includes("properties") && r.chance(0.15)) {
    const ai = r.int(doc.attachments.length);
    const a = doc.attachments[ai];
    if ((a.properties || []).length) {
      const index = r.int(a.properties.length);
      return { ref: { attachment: ai, index }, item: a.properties[index] };
    }
  }
  const n = nodeWith(r, doc, (n) => lists.some((l) => (n[l] || []).length));
  if (!n) return null;
  const list = r.pick(lists.filter((l) => (n[l] || []).length));
  const index = r.int(n[list].length);
  return { ref: { node: n.id, list, index }, item: n[list][index] };
}

// A source for a value of the given type: mostly ones that fit, sometimes ones that do not
// (the module must refuse those).
function pickSource(r, doc, ref, item) {
  const k = r.int(10);
  if (k === 0) return null;
  if (k <= 3 && ref.list === "inputs" && ref.attachment === undefined) {
    const out = nodeWith(r, doc, (n) => n.id !== ref.node && (n.outputs || []).some((o) => r.chance(0.1) || o.type === item.type));
    if (out) {
      const ks = out.outputs.map((o, i) => [o, i]).filter(([o]) => o.type === item.type || r.chance(0.1));
      const pick = r.pick(ks);
      // Sometimes through an expression, as the games' files have it (now and then one the
      // document lacks: the module must refuse it).
      const fns = (doc.expressions && doc.expressions.functions) || [];
      if (pick && fns.length && r.chance(0.3)) return { node: out.id, output: pick[1], expression: r.int(fns.length + (r.chance(0.05) ? 1 : 0)) };
      if (pick) return { node: out.id, output: pick[1] };
    }
  }
  const bb = doc.blackboard || [];
  if (k <= 7 && bb.length) {
    if (item.type === "float" && r.chance(0.3)) {
      const vecs = bb.map((p, i) => [p, i]).filter(([p]) => p.type === "vec3f" || r.chance(0.05));
      const p = r.pick(vecs);
      if (p) return { blackboard: p[1], component: r.pick(["x", "y", "z"]) };
    }
    const fit = bb.map((p, i) => [p, i]).filter(([p]) => p.type === item.type || r.chance(0.05));
    const p = r.pick(fit);
    if (p) return { blackboard: p[1] };
  }
  const fns = (doc.expressions && doc.expressions.functions) || [];
  if (fns.length) return { expression: r.int(fns.length + (r.chance(0.05) ? 1 : 0)) };
  return null;
}

// A new node as the palette makes them (the page's own templates).
function template(r, doc) {
  if (doc.nodes.length && r.chance(0.7)) return nodeFrom(r.pick(doc.nodes), doc);
  return builtinNode(r.pick(NODE_TYPES.filter((t) => t !== "UserDefined")), doc);
}

function someIds(r, doc, max = 3) {
  const ids = new Set();
  const k = 1 + r.int(max);
  for (let i = 0; i < k && doc.nodes.length; i++) ids.add(r.pick(doc.nodes).id);
  return [...ids];
}

// A valid new text for expression k: another function's text, or this one with one literal
// changed.
function mutateExpression(r, fns, k) {
  if (r.chance(0.3)) return r.pick(fns).text;
  const text = fns[k].text;
  const lits = [...text.matchAll(/\b(int|float) (-?\d+(?:\.\d+)?(?:e[-+]?\d+)?)(?=[\s,)]|$)/g)];
  if (lits.length) {
    const m = r.pick(lits);
    const v = m[1] === "int" ? String(r.int(200000) - 100000) : String(Math.fround((r.next() - 0.5) * 100));
    return text.slice(0, m.index) + `${m[1]} ${v}` + text.slice(m.index + m[0].length);
  }
  const strs = [...text.matchAll(/\bstr "([A-Za-z0-9_]*)"/g)];
  if (strs.length) {
    const m = r.pick(strs);
    return text.slice(0, m.index) + `str "S${r.int(1000)}"` + text.slice(m.index + m[0].length);
  }
  // Readable code: a number after "=" or an operator; a float stays a float.
  const nums = [...text.matchAll(/([=+*\/%&|^<>-] )(-?\d+(\.\d+)?(?:e[-+]?\d+)?)(?=[\s)]|$)/g)];
  if (nums.length) {
    const m = r.pick(nums);
    let v = m[3] ? String(Math.fround((r.next() - 0.5) * 100)) : String(r.int(200000) - 100000);
    if (m[3] && !/[.e]/.test(v)) v += ".0";
    return text.slice(0, m.index) + m[1] + v + text.slice(m.index + m[0].length);
  }
  const quoted = [...text.matchAll(/"([A-Za-z0-9_]*)"/g)];
  if (quoted.length) {
    const m = r.pick(quoted);
    return text.slice(0, m.index) + `"S${r.int(1000)}"` + text.slice(m.index + m[0].length);
  }
  return r.pick(fns).text;
}

// ---- the operations: every method of the edit module. Each returns a log entry (what it
// did, with its arguments and result) or null when the document offers nothing to do it on.

const OPS = {
  setValue(r, ed, doc, st) {
    const p = pickItem(r, doc);
    if (!p) return null;
    if (p.item.type === "vec3f" && r.chance(0.5)) {
      const c = r.int(3), v = r.pick(FLOATS);
      return [p.ref, v, c, ed.setValue(p.ref, v, c)];
    }
    const v = valueFor(r, p.item.type, doc, st);
    return [p.ref, v, ed.setValue(p.ref, v)];
  },
  setSource(r, ed, doc) {
    const p = pickItem(r, doc);
    if (!p) return null;
    const ref = { ...p.ref };
    if (Array.isArray(p.item.sources)) {
      if (!p.item.sources.length) return null;
      ref.source = r.int(p.item.sources.length);
    }
    const src = pickSource(r, doc, ref, p.item);
    return [ref, src, ed.setSource(ref, src)];
  },
  connect(r, ed, doc) {
    const b = nodeWith(r, doc, (n) => (n.inputs || []).length);
    if (!b) return null;
    const j = r.int(b.inputs.length);
    const t = b.inputs[j].type;
    const a = nodeWith(r, doc, (n) => (n.outputs || []).some((o) => o.type === t || r.chance(0.05)));
    if (!a) return null;
    const ks = a.outputs.map((o, k) => [o, k]).filter(([o]) => o.type === t || r.chance(0.1));
    const k = (r.pick(ks) || [null, 0])[1];
    return [a.id, k, b.id, j, ed.connect(a.id, k, b.id, j)];
  },
  disconnect(r, ed, doc) {
    const n = nodeWith(r, doc, (n) => (n.inputs || []).some((i) => i.source || (i.sources && i.sources.length)));
    if (!n) return null;
    const js = n.inputs.map((i, j) => [i, j]).filter(([i]) => i.source || (i.sources && i.sources.length));
    const [input, j] = r.pick(js);
    const k = input.sources && r.chance(0.5) ? r.int(input.sources.length) : undefined;
    return [n.id, j, k, ed.disconnect(n.id, j, k)];
  },
  // Sends a node output that feeds an input (or one of a multi-input's sources) through an
  // expression, or back to the input directly.
  setSourceExpression(r, ed, doc) {
    const fed = (i) => (i.source && i.source.node !== undefined) || (i.sources || []).some((s) => s.node !== undefined);
    const n = nodeWith(r, doc, (n) => (n.inputs || []).some(fed));
    if (!n) return null;
    const [input, j] = r.pick(n.inputs.map((i, j) => [i, j]).filter(([i]) => fed(i)));
    const ref = { node: n.id, list: "inputs", index: j };
    if (input.sources) ref.source = r.pick(input.sources.map((s, k) => [s, k]).filter(([s]) => s.node !== undefined))[1];
    const fns = (doc.expressions && doc.expressions.functions) || [];
    const k = fns.length && r.chance(0.7) ? r.int(fns.length + (r.chance(0.05) ? 1 : 0)) : null;
    return [ref, k, ed.setSourceExpression(ref, k)];
  },
  addSource(r, ed, doc) {
    const n = nodeWith(r, doc, (n) => (n.inputs || []).some((i) => Array.isArray(i.sources)));
    if (!n) return null;
    const js = n.inputs.map((i, j) => [i, j]).filter(([i]) => Array.isArray(i.sources));
    const [input, j] = r.pick(js);
    const ref = { node: n.id, list: "inputs", index: j };
    const src = r.chance(0.3) ? null : pickSource(r, doc, ref, input);
    return [ref, src, ed.addSource(ref, src)];
  },
  renameItem(r, ed, doc, st) {
    const p = pickItem(r, doc, ["properties", "inputs", "outputs"]);
    if (!p) return null;
    const name = makeName(r, doc, st);
    return [p.ref, name, ed.renameItem(p.ref, name)];
  },
  renameNode(r, ed, doc, st) {
    const n = r.pick(doc.nodes);
    if (!n) return null;
    const name = makeName(r, doc, st);
    return [n.id, name, ed.renameNode(n.id, name)];
  },
  setNodeFlag(r, ed, doc) {
    const n = r.pick(doc.nodes);
    if (!n) return null;
    const flag = r.pick(["query", "moduleCaller", "residentInit", "multiParamV2"]), on = r.chance(0.5);
    return [n.id, flag, on, ed.setNodeFlag(n.id, flag, on)];
  },
  move(r, ed, doc) {
    const ids = someIds(r, doc);
    const k = r.int(3);
    if (k === 0) {
      // A drag: the nodes are moved live, then recorded.
      const orig = [];
      for (const id of ids) {
        const n = ed.node(id);
        orig.push([id, n.x, n.y]);
        n.x += 13;
        n.y -= 7;
      }
      return ["moved", orig, ed.moved(orig)];
    }
    if (k === 1) {
      const places = ids.map((id) => [id, r.int(5000), r.int(5000)]);
      return ["moveTo", places, ed.moveTo(places)];
    }
    const pos = ids.map((id) => ({ id, x: r.int(5000), y: r.int(5000), pinned: r.chance(0.5) }));
    return ["applyLayout", pos, ed.applyLayout(pos)];
  },
  setChild(r, ed, doc) {
    const n = nodeWith(r, doc, (n) => (n.children || []).length);
    if (!n) return null;
    const k = r.int(n.children.length), t = r.pick(doc.nodes).id;
    return [n.id, k, t, ed.setChild(n.id, k, t)];
  },
  addChild(r, ed, doc, st) {
    const n = r.chance(0.5) ? nodeWith(r, doc, (n) => isSelector(n) || (n.children || []).length) || r.pick(doc.nodes) : r.pick(doc.nodes);
    if (!n) return null;
    const t = r.pick(doc.nodes).id, name = r.chance(0.5) ? makeName(r, doc, st) : undefined;
    return [n.id, t, name, ed.addChild(n.id, t, name)];
  },
  removeChild(r, ed, doc) {
    const n = nodeWith(r, doc, (n) => (n.children || []).length);
    if (!n) return null;
    const k = r.int(n.children.length);
    return [n.id, k, ed.removeChild(n.id, k)];
  },
  setChildName(r, ed, doc, st) {
    const n = nodeWith(r, doc, (n) => (n.children || []).length);
    if (!n) return null;
    const k = r.int(n.children.length), name = makeName(r, doc, st);
    return [n.id, k, name, ed.setChildName(n.id, k, name)];
  },
  // The condition fields the inspector offers (inspector.js conditionFields): the constants
  // the condition has, and blackboard parameters of the type the selector compares with.
  setCondition(r, ed, doc, st) {
    const n = nodeWith(r, doc, (n) => (n.children || []).some((c) => c.condition));
    if (!n) return null;
    const ks = n.children.map((c, k) => [c, k]).filter(([c]) => c.condition);
    const [c, k] = r.pick(ks);
    const cond = c.condition;
    const fields = [];
    const bb = (key, type) => {
      const ps = (doc.blackboard || []).map((p, i) => [p, i]).filter(([p]) => p.type === type);
      fields.push([key, r.chance(0.3) ? null : (r.pick(ps) || [null, null])[1]]);
    };
    if (cond.int !== undefined || (cond.blackboard !== undefined && cond.weight === undefined)) fields.push(["int", valueFor(r, "int", doc, st)]), bb("blackboard", "int");
    if (cond.string !== undefined) fields.push(["string", makeName(r, doc, st)]);
    if (cond.weight !== undefined) fields.push(["weight", valueFor(r, "float", doc, st)]), bb("blackboard", "float");
    if (cond.min !== undefined || cond.max !== undefined) {
      fields.push(["min", valueFor(r, "float", doc, st)], ["max", valueFor(r, "float", doc, st)]);
      bb("minBlackboard", "float");
      bb("maxBlackboard", "float");
    }
    if (!fields.length) return null;
    const [key, v] = r.pick(fields);
    return [n.id, k, key, v, ed.setCondition(n.id, k, key, v)];
  },
  addJump(r, ed, doc, st) {
    const n = r.pick(doc.nodes), t = r.pick(doc.nodes);
    if (!n) return null;
    const cmd = r.chance(0.5) ? r.pick(doc.commands || [])?.name ?? "" : r.chance(0.5) ? makeName(r, doc, st) : "";
    return [n.id, t.id, cmd, ed.addJump(n.id, t.id, cmd)];
  },
  removeJump(r, ed, doc) {
    const n = nodeWith(r, doc, (n) => (n.jumps || []).length);
    if (!n) return null;
    const k = r.int(n.jumps.length);
    return [n.id, k, ed.removeJump(n.id, k)];
  },
  setJump(r, ed, doc, st) {
    const n = nodeWith(r, doc, (n) => (n.jumps || []).length);
    if (!n) return null;
    const k = r.int(n.jumps.length);
    const key = r.pick(["node", "command", "type", "postCalc"]);
    let v;
    switch (key) {
      case "node": v = r.chance(0.9) ? r.pick(doc.nodes).id : 1e9; break;
      case "command": v = r.chance(0.3) ? "" : makeName(r, doc, st); break;
      case "type": v = r.pick([0, 0, 1, 2, 255, 256, -1]); break;
      case "postCalc": v = r.chance(0.5); break;
    }
    return [n.id, k, key, v, ed.setJump(n.id, k, key, v)];
  },
  addQuery(r, ed, doc) {
    const n = r.pick(doc.nodes);
    const q = r.chance(0.8) ? nodeWith(r, doc, (m) => m.query) : r.pick(doc.nodes);
    if (!n || !q) return null;
    return [n.id, q.id, ed.addQuery(n.id, q.id)];
  },
  removeQuery(r, ed, doc) {
    const n = nodeWith(r, doc, (n) => (n.queries || []).length);
    if (!n) return null;
    const k = r.int(n.queries.length);
    return [n.id, k, ed.removeQuery(n.id, k)];
  },
  // The node catalogue's edits: a parameter of the node's class (or of another class) added,
  // one removed (refused while in use), and a node of a known class added and linked.
  addParam(r, ed, doc, st) {
    const n = r.pick(doc.nodes);
    if (!n) return null;
    const c = st.cat.classes.get(classKey(n));
    const lack = missing(c, n);
    let list, plug;
    if (lack.length && r.chance(0.8)) ({ list, plug } = r.pick(lack));
    else {
      const other = r.pick(st.classes);
      list = r.pick(["properties", "inputs", "outputs"]);
      plug = other && r.pick(other[list]);
      if (!plug) return null;
    }
    return [n.id, list, plug.name, plug.type, addParam(ed, n.id, list, plug, c && c[list])];
  },
  removeParam(r, ed, doc) {
    const n = nodeWith(r, doc, (m) => (m.properties || []).length + (m.inputs || []).length + (m.outputs || []).length > 0);
    if (!n) return null;
    const list = r.pick(["properties", "inputs", "outputs"].filter((l) => (n[l] || []).length));
    const k = r.int(n[list].length);
    return [n.id, list, k, removeParam(ed, n.id, list, k)];
  },
  addLinked(r, ed, doc, st) {
    const n = r.pick(doc.nodes);
    if (!n) return null;
    let link = null;
    const side = r.pick(["out", "in", "child", "branch", "none"]);
    if (side === "out" || side === "in") {
      const items = n[side === "out" ? "outputs" : "inputs"] || [];
      if (!items.length) return null;
      const index = r.int(items.length);
      link = { side, node: n.id, index, type: items[index].type, className: items[index].className };
    } else if (side === "child") {
      if (!(n.children || []).length) return null;
      link = { side, node: n.id, index: r.int(n.children.length) };
    } else if (side === "branch") link = { side, node: n.id };
    const c = r.pick(st.classes.filter((c) => fits(c, link)));
    if (!c) return null;
    return [c.key, link, addLinked(ed, classTemplate(c), r.int(3000), r.int(3000), link)];
  },
  addNode(r, ed, doc) {
    const t = template(r, doc);
    return [t.type, t.name, ed.addNode(t, r.int(3000), r.int(3000))];
  },
  duplicate(r, ed, doc) {
    const ids = someIds(r, doc);
    return [ids, ed.duplicate(ids)];
  },
  copyPaste(r, ed, doc) {
    const ids = someIds(r, doc);
    const clip = JSON.parse(JSON.stringify(ed.copyNodes(ids, "self")));
    return [ids, ed.paste(clip, [r.int(3000), r.int(3000)], false)];
  },
  pasteForeign(r, ed, doc, st) {
    const f = st.foreign;
    if (!f || !f.doc.nodes.length) return null;
    const ids = someIds(r, f.doc, 4);
    const clip = JSON.parse(JSON.stringify(f.ed.copyNodes(ids, "other")));
    return [f.name, ids, ed.paste(clip, [r.int(3000), r.int(3000)], true)];
  },
  deleteNodes(r, ed, doc) {
    if (doc.nodes.length <= 1) return null;
    const ids = someIds(r, doc);
    return [ids, ed.deleteNodes(ids)];
  },
  addCommand(r, ed, doc, st) {
    const n = r.pick(doc.nodes), name = makeName(r, doc, st);
    if (!n) return null;
    return [name, n.id, ed.addCommand(name, n.id)];
  },
  removeCommand(r, ed, doc) {
    if (!(doc.commands || []).length) return null;
    const k = r.int(doc.commands.length);
    return [k, ed.removeCommand(k)];
  },
  renameCommand(r, ed, doc, st) {
    if (!(doc.commands || []).length) return null;
    const k = r.int(doc.commands.length), name = makeName(r, doc, st);
    return [k, name, ed.renameCommand(k, name)];
  },
  setCommandRoot(r, ed, doc) {
    if (!(doc.commands || []).length) return null;
    const k = r.int(doc.commands.length), key = r.pick(["root", "secondary"]);
    const id = key === "secondary" && r.chance(0.3) ? -1 : r.pick(doc.nodes).id;
    return [k, id, key, ed.setCommandRoot(k, id, key)];
  },
  addBlackboard(r, ed, doc, st) {
    const type = r.pick(BLACKBOARD_TYPES), name = makeName(r, doc, st);
    return [type, name, ed.addBlackboard(type, name)];
  },
  renameBlackboard(r, ed, doc, st) {
    if (!(doc.blackboard || []).length) return null;
    const k = r.int(doc.blackboard.length), name = makeName(r, doc, st);
    return [k, name, ed.renameBlackboard(k, name)];
  },
  setBlackboardField(r, ed, doc, st) {
    if (!(doc.blackboard || []).length) return null;
    const k = r.int(doc.blackboard.length), key = r.pick(["notes", "file", "inherit"]);
    const v = key === "inherit" ? r.pick(["root", "parent", "none"]) : r.chance(0.3) ? "" : makeName(r, doc, st);
    return [k, key, v, ed.setBlackboardField(k, key, v)];
  },
  setBlackboardValue(r, ed, doc, st) {
    if (!(doc.blackboard || []).length) return null;
    const k = r.int(doc.blackboard.length), p = doc.blackboard[k];
    if (p.type === "vec3f" && r.chance(0.5)) {
      const c = r.int(3), v = r.pick(FLOATS);
      return [k, v, c, ed.setBlackboardValue(k, v, c)];
    }
    const v = valueFor(r, p.type, doc, st);
    return [k, v, ed.setBlackboardValue(k, v)];
  },
  removeBlackboard(r, ed, doc) {
    if (!(doc.blackboard || []).length) return null;
    const k = r.int(doc.blackboard.length);
    return [k, ed.removeBlackboard(k)];
  },
  setExpressionText(r, ed, doc) {
    const fns = doc.expressions && doc.expressions.functions;
    if (!fns || !fns.length) return null;
    const k = r.int(fns.length), text = mutateExpression(r, fns, k);
    return [k, text, ed.setExpressionText(k, text)];
  },
  addExpression(r, ed, doc) {
    const fns = doc.expressions && doc.expressions.functions;
    if (!fns || !fns.length) return null;
    const text = mutateExpression(r, fns, r.int(fns.length));
    return [text, ed.addExpression(text)];
  },
  removeExpression(r, ed, doc) {
    const fns = doc.expressions && doc.expressions.functions;
    if (!fns || !fns.length) return null;
    const k = r.int(fns.length);
    return [k, ed.removeExpression(k)];
  },
  undo(r, ed) {
    return [!!ed.undo()];
  },
  redo(r, ed) {
    return [!!ed.redo()];
  },
};

// How often each operation comes up: edits of values and links most, undo and redo a little.
const WEIGHTS = {
  setValue: 6, setSource: 5, connect: 5, disconnect: 3, setSourceExpression: 2, addSource: 2, renameItem: 4, renameNode: 3, setNodeFlag: 2,
  move: 1, setChild: 2, addChild: 3, removeChild: 2, setChildName: 2, setCondition: 3, addJump: 2, removeJump: 1,
  setJump: 2, addQuery: 2, removeQuery: 1, addNode: 3, duplicate: 2, copyPaste: 2, pasteForeign: 2, deleteNodes: 3,
  addCommand: 1, removeCommand: 1, renameCommand: 2, setCommandRoot: 1, addBlackboard: 2, renameBlackboard: 2,
  setBlackboardField: 2, setBlackboardValue: 3, removeBlackboard: 2, setExpressionText: 3, addExpression: 1,
  removeExpression: 1, undo: 1, redo: 1, addParam: 2, removeParam: 2, addLinked: 3,
};
const BAG = Object.entries(WEIGHTS).flatMap(([op, w]) => Array(w).fill(op));

// Only values of JSON survive in a log entry: NaN and infinities are written as text.
function loggable(v) {
  return JSON.parse(JSON.stringify(v, (k, x) => (typeof x === "number" && !Number.isFinite(x) ? String(x) : Object.is(x, -0) ? "-0" : x)));
}

function runSequence(job, seed, text, foreign) {
  const r = rng(seed);
  const doc = JSON.parse(text);
  const ed = createEdits(doc);
  const st = { fresh: 0, strings: null, foreign, cat: emptyCatalogue() };
  learn(st.cat, doc, { name: "doc" });
  if (foreign) learn(st.cat, foreign.doc, { name: "foreign" });
  st.classes = [...st.cat.classes.values()];
  const log = [];
  let applied = 0;
  // Refused edits must leave the document as it was; checked on the smaller documents, where
  // serialising after every refusal is cheap.
  const checkRefusals = text.length < 400_000;
  for (let i = 0; i < job.ops; i++) {
    let entry = null, op;
    for (let tries = 0; tries < 20 && !entry; tries++) {
      op = r.pick(BAG);
      const before = checkRefusals ? JSON.stringify(doc) : "";
      const undoDepth = ed.history.done.length;
      entry = OPS[op](r, ed, doc, st);
      if (entry && checkRefusals && ed.history.done.length === undoDepth && op !== "undo" && op !== "redo" && JSON.stringify(doc) !== before) {
        throw new Error(`seed ${seed}: ${op} ${JSON.stringify(loggable(entry))} changed the document without an edit in the history`);
      }
    }
    if (!entry) continue;
    const res = entry[entry.length - 1];
    const ok = res === true || (res && res.ok === true) || (typeof res === "number" && res >= 0) || (Array.isArray(res) && res.length > 0);
    if (ok) applied++;
    log.push([op, ...loggable(entry)]);
  }
  const out = { seed, applied, log, document: JSON.stringify(doc) };
  const fns = doc.expressions && doc.expressions.functions;
  if (fns && fns.length) {
    const bad = JSON.parse(out.document);
    const k = r.int(fns.length);
    bad.expressions.functions[k].text = r.pick([".main\nfrobnicate\n", ".input FOO\n.main\nEND\n", ".main\nSTR int Out[0x0]\n", "Out = (\n"]);
    out.invalid = JSON.stringify(bad);
    out.invalidFunction = k;
  }
  return out;
}

const manifest = JSON.parse(readFileSync(process.argv[2], "utf8"));
const texts = new Map();
const load = (path) => {
  if (!texts.has(path)) texts.set(path, readFileSync(path, "utf8"));
  return texts.get(path);
};
for (const job of manifest.jobs) {
  const text = load(job.doc);
  let foreign = null;
  if (job.foreign) {
    const fdoc = JSON.parse(load(job.foreign));
    foreign = { name: job.foreign, doc: fdoc, ed: createEdits(fdoc) };
  }
  for (const seed of job.seeds) {
    const res = runSequence(job, seed, text, foreign);
    writeFileSync(join(manifest.out, `${job.name}.${seed}.json`), JSON.stringify(res));
  }
}
