// Edits that the node catalogue makes possible: a new node created and linked in one step
// (drag a link to empty space, pick a class), and a node's parameters brought in line with
// its class (add the ones it lacks, remove unused ones). Each is one undoable command built
// from the edit module's own operations. No DOM: tested under node (catalogue.test.mjs).

import { nodeTitle, missingOutput } from "./model.js";
import { fitIndex, placeFor, plugFrom } from "./catalogue.js";

// Adds a node of class c (a catalogue class) at (x, y) and links it to what the drag started
// from, all as one command. link: {side: "out", node, index} feeds the new node's first input
// of the output's type; {side: "in", node, index} takes the new node's first output of the
// input's type as the input's source; {side: "child", node, index} points that child at the
// new node; {side: "branch", node} gives the node a new child that is the new node.
// Returns {ok, id, reason}.
export function addLinked(edits, tmpl, x, y, link) {
  const title = nodeTitle(tmpl);
  return edits.group(link ? `Add ${title} and link it` : `Add ${title}`, () => {
    const id = edits.addNode(tmpl, x, y);
    if (!link) return { ok: true, id };
    let res;
    switch (link.side) {
      case "out": {
        const j = fitIndex(tmpl, link);
        if (j < 0) return { ok: false, reason: `${title} has no input that takes this output` };
        res = edits.connect(link.node, link.index, id, j);
        break;
      }
      case "in": {
        const k = fitIndex(tmpl, link);
        if (k < 0) return { ok: false, reason: `${title} has no output this input can read` };
        res = edits.connect(id, k, link.node, link.index);
        break;
      }
      case "child":
        res = edits.setChild(link.node, link.index, id);
        break;
      case "branch":
        res = edits.addChild(link.node, id);
        break;
      default:
        return { ok: false, reason: `cannot link from a ${link.side} plug` };
    }
    return res.ok ? { ok: true, id } : res;
  });
}

// Adds a parameter of the node's class (a plug from catalogue.missing) to node id, where the
// class's list (classList) has it among the others of its type (see placeFor). Sources
// naming the node's later outputs, and enum relocations naming its later properties or
// inputs, follow the move.
export function addParam(edits, id, list, plug, classList) {
  const n = edits.node(id);
  if (!n) return { ok: false, reason: "no such node" };
  if ((n[list] || []).some((p) => p.name === plug.name && p.type === plug.type)) return { ok: false, reason: `#${id} already has ${plug.name}` };
  const tx = edits.begin(`Add ${plug.name} to #${id}`);
  const items = tx.list(n, list);
  const at = placeFor(classList, items, plug);
  shiftRefs(edits, tx, id, list, at, +1);
  tx.splice(items, at, 0, plugFrom(list, plug));
  tx.structure = true;
  tx.geometry = true;
  edits.commit(tx);
  return { ok: true, index: at };
}

// Why parameter k of list cannot go from node id, or "": an input with a source, an output
// some input reads, a value an enum relocation patches are in use.
export function removeProblem(edits, id, list, k) {
  const n = edits.node(id);
  const p = n && (n[list] || [])[k];
  if (!p) return "no such parameter";
  if (p.source || (Array.isArray(p.sources) && p.sources.length)) return `${p.name} takes its value from a source`;
  if (list === "outputs") {
    for (const m of edits.doc.nodes) {
      for (const input of m.inputs || []) {
        const srcs = input.sources || (input.source ? [input.source] : []);
        if (srcs.some((s) => s.node === id && (s.output || 0) === k && !missingOutput(s))) return `${p.name} feeds #${m.id}.${input.name}`;
      }
    }
  } else {
    const key = list === "properties" ? "property" : "input";
    for (const r of edits.doc.enumRelocations || []) {
      if (r.target && r.target.node === id && r.target[key] === k) return `${p.name} is patched by the enum relocation ${r.className}::${r.valueName}`;
    }
  }
  return "";
}

// Removes an unused parameter (see removeProblem) from node id.
export function removeParam(edits, id, list, k) {
  const reason = removeProblem(edits, id, list, k);
  if (reason) return { ok: false, reason };
  const n = edits.node(id);
  const tx = edits.begin(`Remove ${n[list][k].name} from #${id}`);
  tx.splice(n[list], k, 1);
  shiftRefs(edits, tx, id, list, k + 1, -1);
  tx.prune(n, list);
  tx.structure = true;
  tx.geometry = true;
  edits.commit(tx);
  return { ok: true };
}

// Index references to node id's list from position `from` on move by delta.
function shiftRefs(edits, tx, id, list, from, delta) {
  const doc = edits.doc;
  if (list === "outputs") {
    for (const m of doc.nodes) {
      for (const input of m.inputs || []) {
        const srcs = input.sources || (input.source ? [input.source] : []);
        for (const s of srcs) {
          // A missing output is an index among the node's outputs of its type, kept as the
          // file stores it: moving other outputs does not move it.
          if (s.node !== id || missingOutput(s) || (s.output || 0) < from) continue;
          const v = (s.output || 0) + delta;
          tx.set(s, "output", v === 0 ? undefined : v);
        }
      }
    }
    return;
  }
  const key = list === "properties" ? "property" : "input";
  for (const r of doc.enumRelocations || []) {
    const t = r.target;
    if (t && t.node === id && Number.isInteger(t[key]) && t[key] >= from) tx.set(t, key, t[key] + delta);
  }
}
