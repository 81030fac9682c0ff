// Compare and take back: what /api/diff says about the working copy (b) against another
// version of its file (a) — which nodes are added, changed or only in the other file (drawn
// as ghosts), one readable row per change — and taking one change back, setting the place in
// the working copy to the other file's value as one edit. No DOM, so it runs under node too.
//
// The server lists each change with the node it belongs to on each side (nodeA, nodeB); a
// value is taken from the other file's document itself, not from the change's JSON, and its
// links to nodes, blackboard parameters and expressions are translated into the working
// copy's: nodes by the diff's matching, parameters by name and type, expressions by text.

import { nodeTitle } from "./model.js";

// The colours compare mode marks nodes with.
export const COMPARE_COLOR = { added: "#3fb950", changed: "#e3b341", removed: "#f85149" };

const clone = (v) => (v === undefined ? undefined : structuredClone(v));

// The node id a path step names ("node 12 Root (guid …)"), or -1.
export function stepNode(step) {
  const m = /^node (\d+)(?: |$)/.exec(step || "");
  return m ? Number(m[1]) : -1;
}

// Whether the change is a whole node that only one side has.
const wholeNode = (c) => c.path.length === 1 && stepNode(c.path[0]) >= 0 && c.op !== "changed";

// What compare mode draws: status, node id of the working copy -> "added" or "changed";
// ghosts, the other file's nodes the working copy lacks, drawn where they are there.
export function marks(changes, docA) {
  const status = new Map();
  const ghosts = [];
  const byId = new Map((docA.nodes || []).map((n) => [n.id, n]));
  for (const c of changes) {
    if (wholeNode(c) && c.op === "removed") {
      const n = byId.get(c.nodeA);
      if (n) ghosts.push(n);
    } else if (c.nodeB !== undefined) {
      if (wholeNode(c) && c.op === "added") status.set(c.nodeB, "added");
      else if (!status.has(c.nodeB)) status.set(c.nodeB, "changed");
    }
  }
  return { status, ghosts };
}

// The node of a change a row and stepping go to: the working copy's node, or the ghost's.
export function changeNode(c) {
  if (c.nodeB !== undefined) return { id: c.nodeB, ghost: false };
  if (c.nodeA !== undefined) return { id: c.nodeA, ghost: true };
  return null;
}

const MAX_VALUE = 60;

// A value as a row shows it: its JSON, cut to MAX_VALUE characters; "(none)" when absent.
export function shortValue(v) {
  if (v === undefined) return "(none)";
  const s = JSON.stringify(v);
  return s.length > MAX_VALUE ? s.slice(0, MAX_VALUE - 1) + "…" : s;
}

// The members that differ among values when all are objects and some members are alike (a
// property whose value alone changed), else null: a row names those, not whole objects.
export function differing(values) {
  if (!values.every((v) => v && typeof v === "object" && !Array.isArray(v))) return null;
  const keys = [...new Set(values.flatMap((v) => Object.keys(v)))];
  const diff = keys.filter((k) => new Set(values.map((v) => JSON.stringify(v[k]))).size > 1);
  return diff.length && diff.length < keys.length ? diff : null;
}

// Who a path names: "#id Title" for a node of doc (by the id its first step names, or id),
// else the first step.
export function pathOwner(path, doc, id = stepNode(path[0])) {
  const n = stepNode(path[0]) >= 0 ? (doc.nodes || []).find((x) => x.id === id) : null;
  return n ? `#${n.id} ${nodeTitle(n)}` : path[0];
}

// One row of the Changes panel: who (the node's id and title, or the place outside nodes),
// where within it, and the values: the other file's -> the working copy's (of the members
// that changed, for objects alike in the rest).
export function describe(c, docA, docB) {
  const where = c.path.slice(1).join(" / ");
  const who = c.nodeB !== undefined ? pathOwner(c.path, docB, c.nodeB) : pathOwner(c.path, docA, c.nodeA);
  // A whole node's values are the node: its title says enough.
  if (wholeNode(c)) return { op: c.op, who, where: c.op === "added" ? "node only here" : "node only in the other file", values: "" };
  const keys = c.op === "changed" ? differing([c.old, c.new]) : null;
  const values = keys ? keys.map((k) => `${k}: ${shortValue(c.old[k])} → ${shortValue(c.new[k])}`).join("; ") : `${shortValue(c.old)} → ${shortValue(c.new)}`;
  return { op: c.op, who, where, values };
}

// The row as one line of text, as the panel shows it and tests read it.
export function rowText(r) {
  return `${r.who}${r.where ? " · " + r.where : ""}${r.values ? ": " + r.values : ""}`;
}

// How the other file's node ids become the working copy's: the matched nodes whose ids
// differ are listed by the diff (renumbered: [[id in a, id in b], ...]); any other node
// either only the other file has (the changes say so) or keeps its id.
export function nodeMap(changes, renumbered = []) {
  const pairs = new Map(renumbered), onlyA = new Set();
  for (const c of changes) if (wholeNode(c) && c.op === "removed") onlyA.add(c.nodeA);
  return (id) => {
    if (pairs.has(id)) return pairs.get(id);
    if (onlyA.has(id)) throw new TakeBackError(`it links to node #${id}, which only the other file has: take that node back first`);
    return id;
  };
}

export class TakeBackError extends Error {}

// Asking for the diff while the working copy is edited: schedule() asks after delay ms of
// quiet (a burst of edits asks once), run() asks at once; an answer to an older question
// than the last one asked is dropped, as is any answer after cancel(), so what is shown is
// never older than the last answer to the last question. ask() answers the diff; apply(reply)
// and fail(err) take the answer. timers: setTimeout and clearTimeout (tests pass their own).
export class DiffRefresher {
  constructor({ ask, apply, fail = () => {}, delay = 300, timers = globalThis }) {
    Object.assign(this, { ask, apply, fail, delay, timers });
    this.generation = 0;
    this.timer = null;
  }

  schedule() {
    this.timers.clearTimeout(this.timer);
    this.timer = this.timers.setTimeout(() => this.run(), this.delay);
  }

  async run() {
    this.timers.clearTimeout(this.timer);
    this.timer = null;
    const gen = ++this.generation;
    let reply;
    try {
      reply = await this.ask();
    } catch (err) {
      if (gen === this.generation) this.fail(err);
      return false;
    }
    if (gen !== this.generation) return false;
    this.apply(reply);
    return true;
  }

  cancel() {
    this.timers.clearTimeout(this.timer);
    this.timer = null;
    this.generation++;
  }
}

// Takes change c back: the place it names in the working copy (edits.doc) gets the other
// file's value (docA), as one edit labelled "Take back" and the change's row. reply is the
// whole diff ({changes, renumbered}), for the node matching. Returns {ok: true} or {ok:
// false, reason}.
export function takeBack(edits, docA, c, reply) {
  const docB = edits.doc;
  const r = describe(c, docA, docB);
  const label = `Take back ${r.who}${r.where ? " · " + r.where : ""}`;
  try {
    const mapNode = nodeMap(reply.changes, reply.renumbered);
    return edits.group(label, () => {
      if (wholeNode(c) && c.op === "added") {
        const res = edits.deleteNodes([c.nodeB]);
        if (!res.ok) throw new TakeBackError(res.reason);
        return { ok: true };
      }
      // A parameter only the working copy has goes as the Blackboard panel removes one: the
      // sources reading it fall back to their values, the later parameters' readers follow.
      if (c.path.length === 1 && c.op === "added" && /^blackboard /.test(c.path[0])) {
        if (!edits.removeBlackboard(paramIndex(docB, c.path[0]))) throw new TakeBackError("this file has no such parameter");
        return { ok: true };
      }
      const tx = edits.begin(label);
      const t = new Translate(tx, docA, docB, mapNode);
      if (wholeNode(c)) t.restoreNode(docA.nodes.find((n) => n.id === c.nodeA));
      else if (stepNode(c.path[0]) >= 0) t.nodePlace(nodeOf(docA, c.nodeA), nodeOf(docB, c.nodeB), c.path.slice(1));
      else t.documentPlace(c.path[0], c);
      tx.structure = true;
      tx.geometry = true;
      if (!tx.ops.length) throw new TakeBackError("the place already has the other file's value");
      edits.commit(tx);
      return { ok: true };
    });
  } catch (err) {
    if (err instanceof TakeBackError) return { ok: false, reason: `Cannot take back ${c.path.join(" / ")}: ${err.message}` };
    throw err;
  }
}

// The index of the blackboard parameter a step names: "blackboard Speed", or with its type
// when the name is repeated, "blackboard Speed (float)"; -1 for none.
function paramIndex(doc, step) {
  const m = /^blackboard (.*?)(?: \((\w+)\))?$/.exec(step);
  const find = (name, type) => (doc.blackboard || []).findIndex((p) => p.name === name && (!type || p.type === type));
  if (!m) return -1;
  const k = find(m[1], m[2]);
  // A name that itself ends in "(word)" is matched whole when no parameter has the shorter name.
  return k >= 0 || !m[2] ? k : find(step.slice("blackboard ".length));
}

function nodeOf(doc, id) {
  const n = id === undefined ? null : (doc.nodes || []).find((x) => x.id === id);
  if (!n) throw new TakeBackError(`no node #${id}`);
  return n;
}

// The index of the item a step names in a list of named items: "Speed", or "Speed#2" for the
// second of that name (as the server names repeated ones).
export function namedIndex(list, key) {
  const m = /^(.*)#(\d+)$/.exec(key);
  const [name, nth] = m && (list || []).filter((x) => x.name === key).length === 0 ? [m[1], Number(m[2])] : [key, 1];
  let seen = 0;
  for (let k = 0; k < (list || []).length; k++) if (list[k].name === name && ++seen === nth) return k;
  return -1;
}

const NODE_FIELDS = new Set(["type", "name", "guid", "query", "moduleCaller", "residentInit", "multiParamV2", "stateInfo", "actions"]);
const PLUG_FIELDS = new Set(["value", "isOutput", "usesDefault", "setBlackboard"]);
const DOC_FIELDS = new Set(["version", "filename", "category", "moduleCall", "section58", "hasSection6C"]);
const LISTS = { property: "properties", input: "inputs", output: "outputs" };

// Writes values of the other file (a) into the working copy (b) through a transaction,
// translating their links.
class Translate {
  constructor(tx, docA, docB, mapNode) {
    Object.assign(this, { tx, docA, docB, mapNode });
  }

  // A node only the other file has comes back with its links translated, under its id when
  // the working copy has no node of that id (two files read from disk may both use it),
  // else under the next free one.
  restoreNode(n) {
    if (!n) throw new TakeBackError("no such node in the other file");
    const nodes = this.docB.nodes;
    const copy = clone(n);
    if (nodes.some((x) => x.id === n.id)) copy.id = nodes.reduce((m, x) => Math.max(m, x.id + 1), 0);
    for (const k of ["children", "jumps"]) for (const l of copy[k] || []) l.node = this.mapNode(l.node);
    if (copy.queries) copy.queries = copy.queries.map(this.mapNode);
    if (copy.attachments) copy.attachments = copy.attachments.map((i) => this.attachment(i));
    for (const list of ["properties", "inputs"]) for (const p of copy[list] || []) this.plug(p);
    let at = nodes.findIndex((x) => x.id > copy.id);
    if (at < 0) at = nodes.length;
    this.tx.splice(nodes, at, 0, copy);
  }

  // The links of a property or input (a copy) translated in place.
  plug(p) {
    if (p.source) p.source = this.source(p.source);
    if (p.sources) p.sources = p.sources.map((s) => this.source(s));
    return p;
  }

  source(s) {
    const out = { ...s };
    if (s.node !== undefined) out.node = this.mapNode(s.node);
    if (s.blackboard !== undefined) out.blackboard = this.blackboard(s.blackboard);
    if (s.expression !== undefined) out.expression = this.expression(s.expression);
    return out;
  }

  // The working copy's attachment equal to the other file's attachment i (its links
  // translated), added when it has none: attachments are the document's, shared by index.
  attachment(i) {
    const att = (this.docA.attachments || [])[i];
    if (!att) throw new TakeBackError(`no attachment ${i} in the other file`);
    const copy = clone(att);
    for (const p of copy.properties || []) this.plug(p);
    const list = this.tx.list(this.docB, "attachments");
    const text = JSON.stringify(copy);
    const j = list.findIndex((x) => JSON.stringify(x) === text);
    if (j >= 0) return j;
    this.tx.splice(list, list.length, 0, copy);
    return list.length - 1;
  }

  // The working copy's blackboard parameter of the other file's parameter k's name and type.
  blackboard(k) {
    const p = (this.docA.blackboard || [])[k];
    const j = p ? (this.docB.blackboard || []).findIndex((q) => q.name === p.name && q.type === p.type) : -1;
    if (j < 0) throw new TakeBackError(`it reads blackboard parameter ${p ? p.name : k}, which this file does not have`);
    return j;
  }

  // The working copy's expression function of the other file's function k's text, added
  // when it has none.
  expression(k) {
    const f = ((this.docA.expressions || {}).functions || [])[k];
    if (!f) throw new TakeBackError(`no expression function ${k} in the other file`);
    if (!this.docB.expressions) throw new TakeBackError("this file has no expressions");
    const fns = this.docB.expressions.functions;
    const j = fns.findIndex((g) => g.text === f.text);
    if (j >= 0) return j;
    this.tx.splice(fns, fns.length, 0, clone(f));
    return fns.length - 1;
  }

  // Sets b[key] to a's (translated by fix), or removes it where a has none.
  field(a, b, key, fix = (v) => v) {
    const v = a[key] === undefined ? undefined : fix(clone(a[key]));
    this.tx.set(b, key, v);
  }

  // Sets item k of list b (of owner ob at key) to a (a translated copy), adds it at k, or
  // removes it when a is undefined.
  item(ob, key, k, v, at) {
    const list = ob[key];
    const has = list && k >= 0 && k < list.length;
    if (v === undefined) {
      if (!has) throw new TakeBackError("the working copy has no such item");
      this.tx.splice(list, k, 1);
      this.tx.prune(ob, key);
    } else if (has) this.tx.set(list, k, v);
    else {
      const l = this.tx.list(ob, key);
      this.tx.splice(l, Math.min(at, l.length), 0, v);
    }
  }

  nodePlace(na, nb, steps) {
    const [step, ...rest] = steps;
    if (NODE_FIELDS.has(step) && !rest.length) return this.field(na, nb, step);
    if (step === "queries") return this.field(na, nb, "queries", (qs) => qs.map(this.mapNode));
    let m = /^order of (properties|inputs|outputs)$/.exec(step);
    if (m) return this.order(na, nb, m[1]);
    m = /^attachment (\d+)$/.exec(step);
    if (m && !rest.length) {
      const k = Number(m[1]), i = (na.attachments || [])[k];
      return this.item(nb, "attachments", k, i === undefined ? undefined : this.attachment(i), k);
    }
    m = /^(child|jump) (\d+)$/.exec(step);
    if (m && !rest.length) {
      const key = m[1] === "child" ? "children" : "jumps", k = Number(m[2]);
      const v = (na[key] || [])[k];
      return this.item(nb, key, k, v && Object.assign(clone(v), { node: this.mapNode(v.node) }), k);
    }
    m = /^(property|input|output) (.*)$/.exec(step);
    if (m) {
      const key = LISTS[m[1]];
      const ia = namedIndex(na[key], m[2]), ib = namedIndex(nb[key], m[2]);
      const pa = ia >= 0 ? na[key][ia] : undefined, pb = ib >= 0 ? nb[key][ib] : undefined;
      if (!rest.length) return this.item(nb, key, ib, pa && this.plug(clone(pa)), ia);
      if (!pa || !pb) throw new TakeBackError(`one of the files has no ${step}`);
      return this.plugPlace(pa, pb, rest);
    }
    throw new TakeBackError(`${steps.join(" / ")} is not a place the editor takes back (take the whole node's change instead)`);
  }

  plugPlace(pa, pb, steps) {
    const [step, ...rest] = steps;
    if (PLUG_FIELDS.has(step) && !rest.length) return this.field(pa, pb, step);
    if (step === "source" && !rest.length) return this.field(pa, pb, "source", (s) => this.source(s));
    if (step === "sources" && !rest.length) return this.field(pa, pb, "sources", (ss) => ss.map((s) => this.source(s)));
    if (step === "expression" && !rest.length) return this.functionText(pa.source, pb.source);
    const m = /^sources (\d+)$/.exec(step);
    if (m && rest.length === 1 && rest[0] === "expression") return this.functionText((pa.sources || [])[m[1]], (pb.sources || [])[m[1]]);
    throw new TakeBackError(`${steps.join(" / ")} is not a place the editor takes back`);
  }

  // The text of the function a source goes through: the working copy's function gets the
  // other file's text (and what else the function holds).
  functionText(sa, sb) {
    if (!sa || sa.expression === undefined || !sb || sb.expression === undefined) throw new TakeBackError("only one side goes through an expression: take back its source");
    const fa = this.docA.expressions.functions[sa.expression];
    const fns = this.docB.expressions.functions;
    this.tx.set(fns, sb.expression, clone(fa));
  }

  // The items both have in the other file's order, in the places they hold in the working copy.
  order(na, nb, key) {
    const a = na[key] || [], b = nb[key] || [];
    const names = new Set(a.map((x) => x.name));
    const common = b.filter((x) => names.has(x.name));
    const sorted = a.map((x) => common.find((y) => y.name === x.name && !y.taken && (y.taken = true))).filter(Boolean);
    for (const y of common) delete y.taken;
    let k = 0;
    const out = b.map((x) => (names.has(x.name) ? sorted[k++] : x));
    this.tx.set(nb, key, out);
  }

  documentPlace(step, c) {
    const a = this.docA, b = this.docB;
    if (DOC_FIELDS.has(step)) return this.field(a, b, step);
    if (step === "expressions version") {
      if (!a.expressions || !b.expressions) throw new TakeBackError("one of the files has no expressions");
      return this.field(a.expressions, b.expressions, "version");
    }
    if (step === "replacements") return this.field(a, b, step, (rs) => rs && rs.map((r) => ({ ...r, node: this.mapNode(r.node), ...(r.new !== undefined ? { new: this.mapNode(r.new) } : {}) })));
    if (step === "enumRelocations") return this.field(a, b, step, (rs) => rs && rs.map((r) => (r.target && r.target.node !== undefined ? { ...r, target: { ...r.target, node: this.mapNode(r.target.node) } } : r)));
    let m = /^expression function (\d+)$/.exec(step);
    if (m) {
      const k = Number(m[1]), fa = ((a.expressions || {}).functions || [])[k];
      if (!b.expressions) throw new TakeBackError("this file has no expressions");
      return this.item(b.expressions, "functions", fa === undefined && k >= b.expressions.functions.length ? -1 : k, clone(fa), k);
    }
    m = /^command (.*)$/.exec(step);
    if (m) {
      const ca = (a.commands || []).find((c) => c.name === m[1]);
      const k = (b.commands || []).findIndex((c) => c.name === m[1]);
      const v = ca && { ...clone(ca), root: this.mapNode(ca.root), secondary: ca.secondary === -1 ? -1 : this.mapNode(ca.secondary) };
      return this.item(b, "commands", k, v, (a.commands || []).indexOf(ca));
    }
    m = /^module (.*)$/.exec(step);
    if (m) {
      const ma = (a.modules || []).find((x) => x.path === m[1]);
      const k = (b.modules || []).findIndex((x) => x.path === m[1]);
      return this.item(b, "modules", k, clone(ma), (a.modules || []).indexOf(ma));
    }
    if (/^blackboard /.test(step)) {
      const ia = paramIndex(a, step);
      let ib = paramIndex(b, step);
      if (ia < 0) throw new TakeBackError("the other file has no such parameter");
      // Only the other file has it: it comes back last, where no reader's index moves.
      if (c.op === "removed") return this.tx.splice(this.tx.list(b, "blackboard"), b.blackboard.length, 0, clone(a.blackboard[ia]));
      // A renamed parameter is the one at the same place of the same type (as the diff pairs them).
      if (ib < 0 && (b.blackboard || [])[ia] && b.blackboard[ia].type === a.blackboard[ia].type) ib = ia;
      if (ib < 0) throw new TakeBackError("this file has no such parameter");
      return this.tx.set(b.blackboard, ib, clone(a.blackboard[ia]));
    }
    throw new TakeBackError(`${step} is not a place the editor takes back`);
  }
}
