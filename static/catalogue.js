// The node catalogue: every node class the editor has seen, with the plugs its nodes carried
// (properties, inputs, outputs, child names), their types and default values. It is learned
// from each document opened or imported and merged across files, so a class seen with a
// different set of parameters in two files offers the union. No DOM: it runs under node
// (catalogue.test.mjs); catalogue-ui.js keeps it in the browser and feeds the palette.
//
// A class is named by its key: the class name for user-defined nodes ("UserDefined" nodes and
// module callers, whose name is the module), the built-in type otherwise. The catalogue never
// holds links: no sources, children's targets, queries or attachments, only the shape a new
// node of the class starts with.

import { clone, NODE_TYPES } from "./model.js";

export const CATALOGUE_FORMAT = "ainb-editor-catalogue/1";

// Bounds on what is kept in the browser: the classes seen most recently stay. The real game
// has some 7,000 AI classes; a whole unpacked game adds the other categories.
export const MAX_CLASSES = 30000;
export const MAX_FILES = 5000;
// Plugs per list of one class: no real class comes near; a hostile file cannot grow the
// catalogue without bound through one class.
export const MAX_PLUGS = 512;
// The stored text's bound, in characters: the game's 7,130 AI classes take about 2.5 MB.
export const MAX_CHARS = 24 << 20;

const LISTS = ["properties", "inputs", "outputs"];

export function classKey(n) {
  return n.type === "UserDefined" ? n.name || "UserDefined" : n.type;
}

export function emptyCatalogue() {
  return { format: CATALOGUE_FORMAT, classes: new Map(), files: new Map() };
}

// A document's identity for learning: the same file opened twice is counted once.
export function fileKey(doc, name = "") {
  return [name || doc.name || doc.filename || "", doc.version, doc.category || "", doc.nodes.length].join("|");
}

// Merges the classes of a document's nodes into the catalogue. Returns the number of classes
// that were new or gained a plug. A document already learned (same fileKey) is skipped, so
// counts stay those of distinct files.
export function learn(cat, doc, { name = "", now = 0 } = {}) {
  if (!doc || !Array.isArray(doc.nodes)) return 0;
  const fk = fileKey(doc, name);
  if (cat.files.has(fk)) {
    cat.files.set(fk, now);
    return 0;
  }
  cat.files.set(fk, now);
  const category = doc.category || "";
  const touched = new Set();
  let grew = 0;
  for (const n of doc.nodes) {
    if (!n || typeof n.type !== "string") continue;
    const key = classKey(n);
    let c = cat.classes.get(key);
    if (!c) {
      c = { key, type: n.type, name: n.type === "UserDefined" ? n.name || "" : "", count: 0, files: 0, categories: [], seen: now,
        properties: [], inputs: [], outputs: [], children: [] };
      for (const f of ["query", "moduleCaller", "multiParamV2"]) if (n[f]) c[f] = true;
      cat.classes.set(key, c);
      grew++;
    } else if (mergeGrows(c, n)) grew++;
    c.count++;
    c.seen = now;
    if (!touched.has(key)) {
      touched.add(key);
      c.files++;
      if (category && !c.categories.includes(category)) c.categories.push(category);
    }
    for (const list of LISTS) for (const p of n[list] || []) addPlug(c, list, p);
    for (const ch of n.children || []) {
      const nm = typeof ch.name === "string" ? ch.name : "";
      const have = c.children.find((x) => x.name === nm);
      if (have) have.count++;
      else if (c.children.length < MAX_PLUGS) c.children.push({ name: nm, count: 1 });
    }
  }
  trim(cat);
  return grew;
}

// Whether node n has a plug its class does not have yet.
function mergeGrows(c, n) {
  for (const list of LISTS) for (const p of n[list] || []) if (!findPlug(c[list], p)) return true;
  return false;
}

function findPlug(list, p) {
  return list.find((q) => q.name === p.name && q.type === p.type) || null;
}

// Adds one property, input or output to a class: new plugs go after the last plug of their
// type, or where their type goes in file order, so a class's lists stay grouped by type as
// files store them. (A list out of that order would be regrouped by the writer, and the
// output indices that name plugs would then point at other outputs.)
function addPlug(c, list, p) {
  if (!p || typeof p.name !== "string" || typeof p.type !== "string") return;
  const have = findPlug(c[list], p);
  const hasSource = !!p.source || (Array.isArray(p.sources) && p.sources.length > 0);
  if (have) {
    have.count++;
    // A value read from a source is the writer's filler (0, ""): a value of its own wins.
    if (have.fromSource && !hasSource && list !== "outputs") {
      have.value = clone(p.value ?? null);
      delete have.fromSource;
    }
    return;
  }
  if (c[list].length >= MAX_PLUGS) return;
  const q = { name: p.name, type: p.type };
  if (p.className) q.className = p.className;
  if (list !== "outputs") {
    q.value = clone(p.value ?? null);
    if (hasSource) q.fromSource = true;
  }
  if (list === "inputs" && Array.isArray(p.sources)) q.multi = true;
  q.count = 1;
  c[list].splice(insertAt(c[list], p.type), 0, q);
}

function lastOfType(list, type) {
  for (let k = list.length - 1; k >= 0; k--) if (list[k].type === type) return k;
  return -1;
}

// Keeps the catalogue within its bounds, dropping the classes and files seen longest ago.
function trim(cat) {
  if (cat.classes.size > MAX_CLASSES) {
    const old = [...cat.classes.values()].sort((a, b) => a.seen - b.seen || a.count - b.count);
    for (const c of old.slice(0, cat.classes.size - MAX_CLASSES)) cat.classes.delete(c.key);
  }
  if (cat.files.size > MAX_FILES) {
    const old = [...cat.files].sort((a, b) => a[1] - b[1]);
    for (const [k] of old.slice(0, cat.files.size - MAX_FILES)) cat.files.delete(k);
  }
}

// ---- storage

export function toJSON(cat) {
  return JSON.stringify({ format: CATALOGUE_FORMAT, classes: [...cat.classes.values()], files: [...cat.files] });
}

// toJSON within maxChars: the classes seen longest ago are dropped (a tenth at a time) until
// the text fits.
export function boundedJSON(cat, maxChars = MAX_CHARS) {
  let text = toJSON(cat);
  while (text.length > maxChars && cat.classes.size) {
    const old = [...cat.classes.values()].sort((a, b) => a.seen - b.seen || a.count - b.count);
    for (const c of old.slice(0, Math.max(1, Math.ceil(old.length / 10)))) cat.classes.delete(c.key);
    text = toJSON(cat);
  }
  return text;
}

// Reads what toJSON wrote; anything else (an older format, broken text) gives an empty
// catalogue rather than an error: the catalogue is relearned from the next files.
export function fromJSON(text) {
  const cat = emptyCatalogue();
  let v;
  try {
    v = JSON.parse(text);
  } catch {
    return cat;
  }
  if (!v || v.format !== CATALOGUE_FORMAT || !Array.isArray(v.classes)) return cat;
  for (const c of v.classes) {
    if (!c || typeof c.key !== "string" || typeof c.type !== "string") continue;
    for (const list of [...LISTS, "children", "categories"]) if (!Array.isArray(c[list])) c[list] = [];
    cat.classes.set(c.key, c);
  }
  for (const f of Array.isArray(v.files) ? v.files : []) if (Array.isArray(f) && typeof f[0] === "string") cat.files.set(f[0], Number(f[1]) || 0);
  trim(cat);
  return cat;
}

// ---- what fits where

// A link being dragged asks for classes that can take it: from an output of type t a class
// with an input of that type, from an input a class with such an output, from a child plug
// or for a new child ("branch") any class that is not a query (queries are read, never run
// as children).
export function fits(c, link) {
  if (!link) return true;
  if (link.side === "child" || link.side === "branch" || link.side === "jump") return !c.query;
  const list = link.side === "out" ? c.inputs || [] : link.side === "in" ? c.outputs || [] : null;
  if (!list) return true;
  return list.some((p) => p.type === link.type && (link.type !== "pointer" || !link.className || !p.className || p.className === link.className));
}

// The index of the plug a new node of class c connects with a link (see fits), or -1.
export function fitIndex(c, link) {
  if (!link || link.side === "child" || link.side === "branch" || link.side === "jump") return -1;
  const list = (link.side === "out" ? c.inputs : c.outputs) || [];
  return list.findIndex((p) => p.type === link.type && (link.type !== "pointer" || !link.className || !p.className || p.className === link.className));
}

// The classes to offer: those seen in files of the category (classes with no category, the
// built-ins, always), that fit the link, sorted by name. Built-in types never seen are offered
// bare. opts: category ("" for all), link, query (text to look for in names and plugs).
export function offer(cat, { category = "", link = null, query = "" } = {}) {
  const q = query.trim().toLowerCase();
  const out = [];
  const seen = new Set();
  const consider = (c) => {
    if (category && c.categories.length && !c.categories.includes(category) && c.type === "UserDefined") return;
    if (!fits(c, link)) return;
    if (q && !searchText(c).includes(q)) return;
    out.push(c);
  };
  for (const c of cat.classes.values()) {
    seen.add(c.key);
    consider(c);
  }
  for (const t of NODE_TYPES) {
    if (t === "UserDefined" || seen.has(t)) continue;
    consider(bareBuiltin(t));
  }
  out.sort((a, b) => a.key.localeCompare(b.key));
  return out;
}

// The number of classes the catalogue knows, as the palette and the status bar both say it:
// every class offer() can give with nothing filtered, the built-in types never seen in a
// file included (the palette offers them all the same).
export function classCount(cat) {
  let n = cat.classes.size;
  for (const t of NODE_TYPES) if (t !== "UserDefined" && !cat.classes.has(t)) n++;
  return n;
}

function bareBuiltin(t) {
  return { key: t, type: t, name: "", count: 0, files: 0, categories: [], seen: 0, properties: [], inputs: [], outputs: [], children: [], builtin: true };
}

export function searchText(c) {
  if (c.search === undefined) {
    const parts = [c.key];
    for (const list of LISTS) for (const p of c[list]) parts.push(p.name);
    Object.defineProperty(c, "search", { value: parts.join(" ").toLowerCase(), enumerable: false, configurable: true });
  }
  return c.search;
}

// ---- nodes of a class

// A new node of class c as the editor inserts it: its type, name and flags, every property
// and input with its default value, every output; no links. Multi-inputs start with no
// sources.
export function template(c) {
  const n = { type: c.type, name: c.type === "UserDefined" ? c.name : "", guid: "" };
  for (const f of ["query", "moduleCaller", "multiParamV2"]) if (c[f]) n[f] = true;
  for (const list of LISTS) {
    if (!c[list].length) continue;
    n[list] = c[list].map((p) => plugFrom(list, p));
  }
  return n;
}

export function plugFrom(list, p) {
  const q = { name: p.name, type: p.type };
  if (p.className) q.className = p.className;
  if (list !== "outputs") q.value = clone(p.value ?? null);
  if (list === "inputs" && p.multi) q.sources = [];
  return q;
}

// What node n lacks of its class: [{list, plug}] in the class's order.
export function missing(c, n) {
  const out = [];
  if (!c) return out;
  for (const list of LISTS) for (const p of c[list]) if (!findPlug(n[list] || [], p)) out.push({ list, plug: p });
  return out;
}

// Where a plug of type t goes in a node's list: after the last of its type, else where files
// put its type among the others (grouped in the order int, bool, float, string, vec3f,
// pointer).
const TYPE_ORDER = ["int", "bool", "float", "string", "vec3f", "pointer"];
export function insertAt(list, t) {
  const k = lastOfType(list, t);
  if (k >= 0) return k + 1;
  const rank = TYPE_ORDER.indexOf(t);
  const after = list.findIndex((p) => TYPE_ORDER.indexOf(p.type) > rank);
  return after < 0 ? list.length : after;
}

// Where a class's plug goes in a node that lacks it: after the nearest plug before it in the
// class's order that the node has, else before the nearest one after it, else by type (see
// insertAt). A parameter removed and added back returns to its place.
export function placeFor(classList, list, plug) {
  const same = (a, b) => a.name === b.name && a.type === b.type;
  const k = (classList || []).findIndex((q) => same(q, plug));
  if (k >= 0) {
    for (let j = k - 1; j >= 0; j--) {
      const at = list.findIndex((q) => same(q, classList[j]));
      if (at >= 0 && classList[j].type === plug.type) return at + 1;
    }
    for (let j = k + 1; j < classList.length; j++) {
      const at = list.findIndex((q) => same(q, classList[j]));
      if (at >= 0 && classList[j].type === plug.type) return at;
    }
  }
  return insertAt(list, plug.type);
}
