// Merge: the working copy (ours) and another version (theirs) of a file, three ways against a
// base, through /api/merge; the conflicts it lists settled one by one, each as the user chose.
// No DOM, so it runs under node too.
//
// The server settles conflicts all one way (prefer ours or theirs). A mix is made from the two
// settled merges: the one preferring ours, with the places chosen "theirs" taken back to the
// merge preferring theirs (compare.js's takeBack, on a scratch copy). Then both merges are
// diffed against the result: no change may remain at a place settled for that side, so every
// choice is checked to hold before the result reaches the working copy.
//
// A node one side removed and the other changed is one conflict at the node; kept, the server
// gives back the links the removing side dropped with it, at the places that link to it (a
// parent's child, a source, ...). Those are changes outside the node's conflict, so taking
// the node back "theirs" takes them back too (relinks), and no other change.

import { takeBack, stepNode, shortValue, differing, pathOwner } from "./compare.js";
import { createEdits } from "./edits.js";

// Whether change c lies within the place conflict k names: a conflict on a node is matched by
// the node's id (the merged numbering is base's on both sides) and the steps below it.
export function within(c, k) {
  const id = stepNode(k.path[0]);
  if (id >= 0) {
    const cid = c.nodeB !== undefined ? c.nodeB : c.nodeA;
    if (cid !== id || stepNode(c.path[0]) < 0) return false;
  } else if (c.path[0] !== k.path[0]) return false;
  for (let s = 1; s < k.path.length; s++) if (c.path[s] !== k.path[s]) return false;
  return true;
}

// The document that settles conflicts as choices says ("ours" or "theirs" for each, in the
// order the server listed them). ask(prefer) answers /api/merge with that preference
// ({document, conflicts}); diff(a, b) answers /api/diff ({changes, renumbered}). Throws an Error saying
// which conflict could not be settled as chosen.
export async function settle(conflicts, choices, ask, diff) {
  if (choices.length !== conflicts.length || choices.some((c) => c !== "ours" && c !== "theirs")) {
    throw new Error(`every conflict needs a choice of ours or theirs (${choices.filter(Boolean).length} of ${conflicts.length} chosen)`);
  }
  const one = (side) => choices.every((c) => c === side);
  if (one("ours") || one("theirs")) return (await ask(one("ours") ? "ours" : "theirs")).document;
  const [mo, mt] = await Promise.all([ask("ours"), ask("theirs")]);
  const result = structuredClone(mo.document);
  const scratch = createEdits(result);
  const reply = await diff(mt.document, result);
  const changes = reply.changes;
  const taken = [], kept = [];
  conflicts.forEach((k, i) => {
    if (choices[i] !== "theirs") return;
    const under = changes.filter((c) => within(c, k));
    if (!under.length) throw new Error(`conflict ${k.path.join(" / ")}: the two merges do not differ there`);
    taken.push(...under);
    if (k.path.length === 1 && stepNode(k.path[0]) >= 0) kept.push(stepNode(k.path[0]));
  });
  const links = relinks(changes, kept).filter((c) => !taken.includes(c));
  // From the last: taking an item of a list back leaves the places before it as they were.
  // The links come last, after the nodes they lead to; a node taken back is paired with its
  // id in the result so that a link to it is translated.
  const pairs = { ...reply, renumbered: [...(reply.renumbered || [])] };
  for (const c of [...links, ...taken].reverse()) {
    const nodeBack = c.path.length === 1 && c.op === "removed";
    const ids = nodeBack && new Set(result.nodes.map((n) => n.id));
    const res = takeBack(scratch, mt.document, c, pairs);
    if (!res.ok) throw new Error(res.reason);
    const back = nodeBack && result.nodes.find((n) => !ids.has(n.id));
    if (back) pairs.renumbered.push([c.nodeA, back.id]);
  }
  const [fromOurs, fromTheirs] = await Promise.all([diff(mo.document, result), diff(mt.document, result)]);
  conflicts.forEach((k, i) => {
    const left = (choices[i] === "ours" ? fromOurs : fromTheirs).changes.filter((c) => within(c, k));
    if (left.length) throw new Error(`conflict ${k.path.join(" / ")}: ${choices[i]} could not be taken exactly (${left.length} difference${left.length === 1 ? "" : "s"} left)`);
  });
  return result;
}

// Places whose value links to nodes: children, jumps, queries, an input's source or sources,
// the replacements and enum relocations.
const LINK_PLACE = /^(child \d+|jump \d+|queries|source|sources|replacements|enumRelocations)$/;

// Whether value v of a link place links to node id.
function linksTo(v, id) {
  if (Array.isArray(v)) return v.some((x) => x === id || linksTo(x, id));
  return !!v && typeof v === "object" && (v.node === id || v.new === id || linksTo(v.target, id));
}

// The changes (of the theirs-preferring merge against the result, in their order) that give
// back links to the nodes ids: those whose theirs-preferring value links to one while the
// result's does not. Children and jumps are compared by index, so a link given back before
// others moves the later ones down a place: the changes at those come along, and so does the
// replacements' change when they name a child of a parent whose children come back.
export function relinks(changes, ids) {
  const out = new Set(), from = new Map(); // node id and list -> the first index given back
  const indexed = (c) => c.path.length === 2 && /^(child|jump) (\d+)$/.exec(c.path[1]);
  for (const c of changes) {
    if (!LINK_PLACE.test(c.path[c.path.length - 1]) || !ids.some((id) => linksTo(c.old, id) && !linksTo(c.new, id))) continue;
    out.add(c);
    const m = indexed(c);
    if (m) from.set(`${c.nodeA} ${m[1]}`, Math.min(from.get(`${c.nodeA} ${m[1]}`) ?? Infinity, Number(m[2])));
  }
  for (const c of changes) {
    const m = indexed(c);
    if (m && Number(m[2]) >= (from.get(`${c.nodeA} ${m[1]}`) ?? Infinity)) out.add(c);
    // A replacement names a child by its index: the replacements of a parent whose children
    // come back come back with them, or they would name the child next to theirs.
    if (c.path.length === 1 && c.path[0] === "replacements" && (c.old || []).some((r) => r.type !== "removeAttachment" && from.has(`${r.node} child`))) out.add(c);
  }
  return changes.filter((c) => out.has(c));
}

// Makes the working copy (edits.doc) the document next, as one edit: every member of the
// document is set, so an undo puts back the very objects it held.
export function replaceDocument(edits, next, label) {
  const doc = edits.doc;
  const tx = edits.begin(label);
  for (const key of new Set([...Object.keys(doc), ...Object.keys(next)])) tx.set(doc, key, next[key]);
  tx.structure = true;
  tx.geometry = true;
  return edits.commit(tx);
}

// A conflict as its row reads: who (a node of doc, the working copy, by its id and title),
// the place, then the three values (of the members that differ, for objects alike in the
// rest).
export function conflictText(k, doc) {
  const where = pathOwner(k.path, doc) + (k.path.length > 1 ? " · " + k.path.slice(1).join(" / ") : "");
  const three = (f) => `base ${shortValue(f(k.base))}, ours ${shortValue(f(k.ours))}, theirs ${shortValue(f(k.theirs))}`;
  const keys = differing([k.base, k.ours, k.theirs]);
  return `${where}: ${keys ? keys.map((m) => `${m}: ${three((v) => v[m])}`).join("; ") : three((v) => v)}`;
}
