// BYML and AAMP documents in the server's typed JSON forms (internal/byml and internal/aamp
// json.go), read as one tree of entries: what an entry's children are, how its key and value
// read, how typed text becomes a value of the entry's own type, which rows are visible with
// some containers expanded, search and paths. No DOM: it runs under node too
// (treemodel.test.mjs).
//
// BYML: {version, bigEndian, root: NODE}, NODE = {type, value}: containers "array" (value:
// [NODE...]), "hash" ([[key, NODE]...], sorted by key), "hashmap32" ([[hash, NODE]...]) and
// "hashmap64" ([["hash", NODE]...]), both sorted by hash. AAMP: {version, type, param_root:
// LIST}, LIST = {hash, name?, lists, objects}, OBJECT = {hash, name?, params}, PARAM = {hash,
// name?, type, value}. An entry is named by its node object, which stays the same object
// through edits, undo and redo.

export const BYML_CONTAINERS = ["array", "hash", "hashmap32", "hashmap64"];
export const BYML_TYPES = ["string", "int", "uint", "float", "bool", "int64", "uint64", "double", "null", "binary", ...BYML_CONTAINERS];
export const AAMP_PARAM_TYPES = ["bool", "f32", "int", "u32", "vec2", "vec3", "vec4", "color", "quat", "string32", "string64", "string256",
  "string_ref", "curve1", "curve2", "curve3", "curve4", "buffer_int", "buffer_f32", "buffer_u32", "buffer_binary"];
const VECTOR_SIZE = { vec2: 2, vec3: 3, vec4: 4, color: 4, quat: 4 };
const STRING_CAP = { string32: 32, string64: 64, string256: 256 };

// ---- entries

// The node at the top: its children are the rows at depth 0.
export function rootOf(kind, doc) {
  return kind === "aamp" ? doc.param_root : doc.root;
}

// What an entry is: a BYML type, or "list", "object" and an AAMP parameter's type.
export function typeOf(kind, node) {
  if (kind === "byml") return node.type;
  if (Array.isArray(node.params)) return "object";
  if (Array.isArray(node.lists)) return "list";
  return node.type;
}

export function isContainer(kind, node) {
  if (kind === "byml") return BYML_CONTAINERS.includes(node.type);
  return Array.isArray(node.lists) || Array.isArray(node.params);
}

// The children of a container, each {node, key, group, index}: group names the array that
// holds it ("value" for BYML; "objects", "lists" or "params" for AAMP, a list showing its
// objects before its lists as oead's YAML does) and index its place there.
export function children(kind, node) {
  const out = [];
  if (kind === "byml") {
    const v = node.value;
    if (node.type === "array") v.forEach((n, i) => out.push({ node: n, key: i, group: "value", index: i }));
    else if (BYML_CONTAINERS.includes(node.type)) v.forEach((p, i) => out.push({ node: p[1], key: p[0], group: "value", index: i }));
    return out;
  }
  const named = (group) => (n, i) => out.push({ node: n, key: nameOf(n), group, index: i });
  if (Array.isArray(node.params)) node.params.forEach(named("params"));
  else if (Array.isArray(node.lists)) {
    node.objects.forEach(named("objects"));
    node.lists.forEach(named("lists"));
  }
  return out;
}

export function childCount(kind, node) {
  if (kind === "byml") return BYML_CONTAINERS.includes(node.type) ? node.value.length : 0;
  if (Array.isArray(node.params)) return node.params.length;
  if (Array.isArray(node.lists)) return node.lists.length + node.objects.length;
  return 0;
}

// An AAMP entry's name as the YAML shows it: the name, or its hash in decimal.
export function nameOf(n) {
  return n.name !== undefined && n.name !== "" ? n.name : String(Number(n.hash) >>> 0);
}

// Whether entries of a group can be renamed, and reordered.
export function renamable(kind, parent) {
  return kind === "aamp" || (parent && parent.type !== "array");
}

export function reorderable(kind, parent) {
  return kind === "aamp" || (parent && parent.type === "array");
}

// ---- values as text

// The value as a row shows it.
export function valueText(kind, node) {
  const t = typeOf(kind, node);
  if (kind === "byml") {
    switch (t) {
      case "array": return `[${node.value.length}]`;
      case "hash": case "hashmap32": case "hashmap64": return `{${node.value.length}}`;
      case "null": return "null";
      case "string": return JSON.stringify(node.value);
      case "float": return floatText(node.value, true);
      case "binary": return `${base64Size(node.value)} bytes`;
      case "file": return `${base64Size(node.value.data)} bytes, aligned to ${node.value.align}`;
      default: return String(node.value);
    }
  }
  switch (t) {
    case "list": return `${node.objects.length} objects, ${node.lists.length} lists`;
    case "object": return `{${node.params.length}}`;
  }
  return paramText(t, node.value, true);
}

// The text a value is edited as; null for what has no value to edit (containers, null).
export function editText(kind, node) {
  const t = typeOf(kind, node);
  if (isContainer(kind, node) || t === "null") return null;
  if (kind === "byml") {
    switch (t) {
      case "float": return floatText(node.value, true);
      case "file": return node.value.data;
      default: return String(node.value);
    }
  }
  return paramText(t, node.value, false);
}

function paramText(t, v, short) {
  if (t === "f32") return floatText(v, true);
  if (VECTOR_SIZE[t] || t === "buffer_f32") {
    const s = v.map((x) => floatText(x, true)).join(", ");
    return short && VECTOR_SIZE[t] ? `(${s})` : short ? listShort(v.map((x) => floatText(x, true))) : s;
  }
  if (t === "buffer_int" || t === "buffer_u32" || t === "buffer_binary") return short ? listShort(v.map(String)) : v.join(", ");
  if (t.startsWith("curve")) return short ? `${v.length} curve${v.length === 1 ? "" : "s"}` : JSON.stringify(v);
  if (t.startsWith("string")) return short ? JSON.stringify(v) : v;
  return String(v);
}

function listShort(items) {
  const head = items.slice(0, 8).join(", ");
  return `[${head}${items.length > 8 ? `, … ${items.length} values` : ""}]`;
}

function base64Size(s) {
  const pad = s.endsWith("==") ? 2 : s.endsWith("=") ? 1 : 0;
  return (s.length / 4) * 3 - pad;
}

// The shortest text that reads back as the same f32 (the server writes floats this way).
export function floatText(v, f32) {
  if (typeof v === "string") return v; // "nan", "inf", "-inf"
  if (Object.is(v, -0)) return "-0";
  if (!f32) return String(v);
  for (let p = 1; p <= 9; p++) {
    const s = v.toPrecision(p);
    if (Math.fround(Number(s)) === v) return String(Number(s));
  }
  return String(v);
}

// ---- text to typed values

const INT = /^[-+]?(\d+|0x[0-9a-f]+)$/i;

function bigOf(text) {
  const s = text.trim();
  if (!INT.test(s)) return null;
  const neg = s.startsWith("-");
  const digits = s.replace(/^[-+]/, "");
  const b = BigInt(digits);
  return neg ? -b : b;
}

function intIn(text, lo, hi, what) {
  const b = bigOf(text);
  if (b === null) return { error: `${JSON.stringify(text)} is not an integer (${what})` };
  if (b < lo || b > hi) return { error: `${b} is out of range for ${what} (${lo} to ${hi})` };
  return { value: b };
}

// A float of JSON: a number, or "nan", "inf", "-inf". f32 rounds to the nearest f32 and
// keeps the shortest decimal of it.
function parseFloatText(text, f32, what) {
  const s = text.trim().toLowerCase().replace(/^\+/, "");
  if (s === "nan" || s === ".nan") return { value: "nan" };
  if (s === "inf" || s === "infinity" || s === ".inf") return { value: "inf" };
  if (s === "-inf" || s === "-infinity" || s === "-.inf") return { value: "-inf" };
  if (!/^-?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/.test(s)) return { error: `${JSON.stringify(text)} is not a number (${what})` };
  let v = Number(s);
  if (f32) {
    const r = Math.fround(v);
    if (!Number.isFinite(r)) return { error: `${text} is beyond the range of an f32` };
    v = Number(floatText(r, true));
    if (Object.is(r, -0)) v = -0;
  } else if (!Number.isFinite(v)) return { error: `${text} is beyond the range of a double` };
  return { value: v };
}

function floats(text, n, what) {
  const parts = text.split(/[\s,]+/).filter(Boolean);
  if (n >= 0 && parts.length !== n) return { error: `${what} needs ${n} numbers, not ${parts.length}` };
  const out = [];
  for (const p of parts) {
    const f = parseFloatText(p, true, what);
    if (f.error) return f;
    out.push(f.value);
  }
  return { value: out };
}

function ints(text, lo, hi, what) {
  const out = [];
  for (const p of text.split(/[\s,]+/).filter(Boolean)) {
    const r = intIn(p, lo, hi, what);
    if (r.error) return r;
    out.push(Number(r.value));
  }
  return { value: out };
}

const utf8 = new TextEncoder();
const S32 = [-(2n ** 31n), 2n ** 31n - 1n], U32 = [0n, 2n ** 32n - 1n];
const S64 = [-(2n ** 63n), 2n ** 63n - 1n], U64 = [0n, 2n ** 64n - 1n];

// Reads text as a value of the entry's own type: {value} (what the JSON form holds) or
// {error} saying why not. The type never changes.
export function parseValue(kind, node, text) {
  const t = typeOf(kind, node);
  const num = (r) => (r.error ? r : { value: Number(r.value) });
  const dec = (r) => (r.error ? r : { value: String(r.value) });
  switch (t) {
    case "bool": {
      const s = text.trim().toLowerCase();
      if (s === "true" || s === "1") return { value: true };
      if (s === "false" || s === "0") return { value: false };
      return { error: `${JSON.stringify(text)} is not true or false` };
    }
    case "int": return num(intIn(text, ...S32, kind === "byml" ? "int, 32 bits" : "int"));
    case "uint": case "u32": return num(intIn(text, ...U32, t));
    case "int64": return dec(intIn(text, ...S64, "int64"));
    case "uint64": return dec(intIn(text, ...U64, "uint64"));
    case "float": case "f32": return parseFloatText(text, true, t);
    case "double": return parseFloatText(text, false, t);
    case "string": case "string_ref": case "string32": case "string64": case "string256": {
      if (text.includes("\0")) return { error: "a string cannot hold a NUL character" };
      const cap = STRING_CAP[t];
      if (cap && utf8.encode(text).length >= cap) return { error: `a ${t} holds at most ${cap - 1} bytes` };
      return { value: text };
    }
    case "binary": case "file": {
      const s = text.trim();
      if (s.length % 4 || !/^[A-Za-z0-9+/]*={0,2}$/.test(s)) return { error: "not base64 text" };
      return { value: t === "file" ? { align: node.value.align, data: s } : s };
    }
    case "buffer_f32": return floats(text, -1, t);
    case "buffer_int": return ints(text, ...S32, t);
    case "buffer_u32": return ints(text, ...U32, t);
    case "buffer_binary": return ints(text, 0n, 255n, t);
    case "curve1": case "curve2": case "curve3": case "curve4": {
      let v;
      try {
        v = JSON.parse(text);
      } catch (err) {
        return { error: `curves are JSON: ${err.message}` };
      }
      const n = Number(t.slice(5));
      if (!Array.isArray(v) || v.length !== n || !v.every((c) => c && Number.isInteger(c.a) && Number.isInteger(c.b) && Array.isArray(c.floats) && c.floats.length === 30)) {
        return { error: `${t} is a list of ${n} {"a", "b", "floats": [30 numbers]}` };
      }
      return { value: v };
    }
  }
  if (VECTOR_SIZE[t]) return floats(text, VECTOR_SIZE[t], t);
  return { error: `a ${t} has no value to edit` };
}

// A new entry's value for a type: zero, empty or false.
export function newNode(kind, type) {
  if (kind === "byml") {
    if (type === "null") return { type };
    if (BYML_CONTAINERS.includes(type)) return { type, value: [] };
    const zero = { string: "", bool: false, int64: "0", uint64: "0", binary: "", file: { align: 4, data: "" } };
    return { type, value: type in zero ? zero[type] : 0 };
  }
  if (type === "list") return { lists: [], objects: [] };
  if (type === "object") return { params: [] };
  const v = VECTOR_SIZE[type] ? new Array(VECTOR_SIZE[type]).fill(0)
    : type.startsWith("buffer") ? []
    : type.startsWith("curve") ? Array.from({ length: Number(type.slice(5)) }, () => ({ a: 0, b: 0, floats: new Array(30).fill(0) }))
    : type.startsWith("string") ? "" : type === "bool" ? false : 0;
  return { type, value: v };
}

// The types an entry added to parent may have.
export function addableTypes(kind, parent) {
  if (kind === "byml") return BYML_TYPES;
  if (Array.isArray(parent.params)) return AAMP_PARAM_TYPES;
  return ["object", "list"];
}

// ---- keys

// Bytewise UTF-8 order, the order BYML hashes keep their keys in.
export function compareKeys(a, b) {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.codePointAt(i), y = b.codePointAt(i);
    if (x !== y) return x < y ? -1 : 1;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}

// The order of a BYML container's keys: strings bytewise, hashes by value.
export function keyOrder(type) {
  if (type === "hash") return compareKeys;
  return (a, b) => {
    const x = BigInt(a), y = BigInt(b);
    return x < y ? -1 : x > y ? 1 : 0;
  };
}

// Reads a key typed for a BYML container: {key} or {error}.
export function parseKey(type, text) {
  if (type === "hash") {
    if (text.includes("\0")) return { error: "a key cannot hold a NUL character" };
    return { key: text };
  }
  const r = intIn(text, ...(type === "hashmap32" ? U32 : U64), `${type} key`);
  if (r.error) return r;
  return { key: type === "hashmap32" ? Number(r.value) : String(r.value) };
}

// Where a key goes among a BYML container's sorted entries.
export function insertionIndex(container, key) {
  const cmp = keyOrder(container.type);
  let lo = 0, hi = container.value.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cmp(container.value[mid][0], key) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

let crcTable = null;

// The CRC32 (IEEE) of a name's UTF-8 bytes: an AAMP name's hash.
export function crc32(text) {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let c = 0xffffffff;
  for (const b of utf8.encode(text)) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

// An AAMP name as typed: {hash, name} (name undefined for a hash typed as a number).
export function parseName(text) {
  const s = text.trim();
  if (!s) return { error: "a name cannot be empty" };
  if (/^0x[0-9a-f]{1,8}$/i.test(s) || /^\d+$/.test(s) && BigInt(s) < 2n ** 32n) return { hash: Number(s), name: undefined };
  return { hash: crc32(s), name: s };
}

// ---- paths: JSON Pointer style, "/Actors/12/name"

export const escapeKey = (k) => String(k).replaceAll("~", "~0").replaceAll("/", "~1");
const unescapeKey = (k) => k.replaceAll("~1", "/").replaceAll("~0", "~");

// The chain of nodes a path names, from the first level down: [node...], or null.
export function resolvePath(kind, doc, path) {
  let node = rootOf(kind, doc);
  const chain = [];
  if (!node) return null;
  const parts = path.replace(/^\/+/, "").split("/").filter((p, i, a) => p !== "" || i < a.length - 1);
  for (const raw of parts) {
    if (!isContainer(kind, node)) return null;
    const key = unescapeKey(raw);
    const c = children(kind, node).find((x) => String(x.key) === key);
    if (!c) return null;
    node = c.node;
    chain.push(node);
  }
  return chain;
}

// ---- rows

// The rows shown: every child of the root, and the children of every expanded container
// below, depth first. A row is {node, key, depth, parent, group, index, path}.
// Shared nodes expanded at many places could make more rows than any file has entries:
// past MAX_ROWS the list stops (rows.truncated says so).
export const MAX_ROWS = 2_000_000;

export function flatten(kind, doc, expanded) {
  const rows = [];
  const root = rootOf(kind, doc);
  if (!root) return rows;
  const walk = (parent, depth, path) => {
    for (const c of children(kind, parent)) {
      if (rows.length >= MAX_ROWS) {
        rows.truncated = true;
        return;
      }
      const p = path + "/" + escapeKey(c.key);
      rows.push({ node: c.node, key: c.key, depth, parent, group: c.group, index: c.index, path: p });
      if (expanded.has(c.node) && isContainer(kind, c.node)) walk(c.node, depth + 1, p);
    }
  };
  walk(root, 0, "");
  return rows;
}

// The parent of every node (a Map), for finding an entry's ancestors.
export function parents(kind, doc) {
  const out = new Map();
  const root = rootOf(kind, doc);
  if (!root) return out;
  const stack = [root];
  while (stack.length) {
    const n = stack.pop();
    if (!isContainer(kind, n)) continue;
    for (const c of children(kind, n)) {
      // A shared node keeps its first parent, and its members are walked once.
      if (out.has(c.node)) continue;
      out.set(c.node, n);
      stack.push(c.node);
    }
  }
  return out;
}

// ---- search

// Entries whose key or value holds query (any case), in document order, at most limit:
// each {node, chain} where chain lists the containers above it from the first level down.
export function search(kind, doc, query, limit = 5000) {
  const q = query.trim().toLowerCase();
  const hits = [];
  const root = rootOf(kind, doc);
  if (!q || !root) return hits;
  const chain = [];
  // A shared node is searched once, at its first place: its hits show at every place (rows
  // are marked by node), and a heavily shared file costs its size, not its expansion.
  const walked = new Set();
  const walk = (parent) => {
    for (const c of children(kind, parent)) {
      if (hits.length >= limit) return;
      const n = c.node;
      if (String(c.key).toLowerCase().includes(q) || searchValue(kind, n).includes(q)) hits.push({ node: n, chain: chain.slice() });
      if (isContainer(kind, n) && !walked.has(n)) {
        walked.add(n);
        chain.push(n);
        walk(n);
        chain.pop();
      }
    }
  };
  walk(root);
  return hits;
}

// What search reads of a value: scalars as their JSON text, lower case.
function searchValue(kind, n) {
  if (isContainer(kind, n)) return "";
  const v = n.value;
  if (v === undefined) return "";
  return (typeof v === "string" ? v : typeof v === "object" ? JSON.stringify(v) : String(v)).toLowerCase();
}

// ---- shared nodes

// The server's BYML JSON form writes a node used from several places once, with an "id",
// and {"ref": id} at the others (internal/byml doc). linkShared puts the one node object at
// every place instead, so an edit of it is an edit everywhere it is used, and drops the ids
// (encodeShared numbers them again). A ref to no earlier node is an error.
export function linkShared(doc) {
  const root = doc && doc.root;
  if (!root) return doc;
  const defs = new Map();
  const link = (n) => {
    if (n && n.ref !== undefined && n.type === undefined) {
      const d = defs.get(n.ref);
      if (!d) throw new Error(`ref ${n.ref} names no node defined before it`);
      return d;
    }
    if (BYML_CONTAINERS.includes(n.type)) {
      const v = n.value;
      for (let i = 0; i < v.length; i++) {
        if (n.type === "array") v[i] = link(v[i]);
        else v[i][1] = link(v[i][1]);
      }
    }
    if (n.id !== undefined) {
      defs.set(n.id, n);
      delete n.id;
    }
    return n;
  };
  doc.root = link(root);
  return doc;
}

// The BYML document of the server's compact form (internal/byml/compact.go), as linkShared
// makes of the JSON form: the same node objects, one object for a node used from several
// places. The compact form names each node's type by a letter, kept with its container's
// keys in shapes the containers share, lists each key and string once, and sends every
// container and big value once, as a number where it is used again. It is what /api/tree
// answers the tree view, a sixth of the JSON form, and read here in one pass without the JSON
// form's object per node.
export function fromCompact(form) {
  const defs = [], strings = form.strings;
  // How many places use each container and big value, as useCounts counts them: the form
  // says it as it is read (every number is one more use), which saves the view a walk.
  const uses = new Map();
  const shapes = form.shapes.map((s) => (typeof s === "string" ? { letters: s, keys: null, names: null, unsorted: false } : { letters: s[0], keys: s[1], names: null, unsorted: s.length > 2 }));
  const keyNames = (numbers) =>
    numbers.map((k) => {
      const name = form.keys[k];
      if (name === undefined) fail(`key ${k} is not in the list`);
      return name;
    });
  const fail = (why) => {
    throw new Error(`compact document: ${why}`);
  };
  const value = (letter, v) => {
    let node;
    switch (letter) {
      case "s": {
        const t = strings[v];
        if (t === undefined) fail(`string ${v} is not in the list`);
        return { type: "string", value: t };
      }
      case "i": return { type: "int", value: v };
      case "f": return { type: "float", value: v };
      case "u": return { type: "uint", value: v };
      case "b": return { type: "bool", value: v };
      case "n": return { type: "null" };
      case "a": case "h": case "p": case "q": {
        if (typeof v === "number") return ref(v, letter);
        const shape = shapes[v[0]];
        if (!shape) fail(`shape ${v[0]} is not in the list`);
        const { letters } = shape, n = v.length - 1;
        const members = new Array(n);
        if (letter === "a") {
          if (letters.length === 1) for (let i = 0; i < n; i++) members[i] = value(letters, v[i + 1]);
          else if (letters.length === n) for (let i = 0; i < n; i++) members[i] = value(letters[i], v[i + 1]);
          else fail(`an array of ${n} has the shape ${JSON.stringify(letters)}`);
          node = { type: "array", value: members };
        } else {
          // A hash's keys are numbers in the form's keys list; a hash map's, its hashes.
          const keys = letter === "h" ? shape.names || (shape.names = keyNames(shape.keys)) : shape.keys;
          if (!keys || keys.length !== n || letters.length !== n) fail(`a container of ${n} has the shape ${v[0]}`);
          for (let i = 0; i < n; i++) members[i] = [keys[i], value(letters[i], v[i + 1])];
          node = shape.unsorted ? { type: LETTER_TYPE[letter], unsorted: true, value: members } : { type: LETTER_TYPE[letter], value: members };
        }
        break;
      }
      case "l": case "m": case "x":
        if (typeof v === "number") return ref(v, letter);
        node = { type: LETTER_TYPE[letter], value: v };
        break;
      case "d":
        if (typeof v === "number") return ref(v, letter);
        node = { type: "double", value: v === "nan" || v === "inf" || v === "-inf" ? v : Number(v) };
        break;
      case "y":
        if (typeof v === "number") return ref(v, letter);
        node = { type: "file", value: { align: v[0], data: v[1] } };
        break;
      default:
        fail(`unknown type letter ${JSON.stringify(letter)}`);
    }
    defs.push(node);
    uses.set(node, 1);
    return node;
  };
  const ref = (id, letter) => {
    const d = defs[id];
    if (!d || d.type !== LETTER_TYPE[letter]) fail(`${id} names no ${LETTER_TYPE[letter]} before it`);
    uses.set(d, uses.get(d) + 1);
    return d;
  };
  const root = form.root === null ? null : value(form.type, form.root);
  const doc = { version: form.version, bigEndian: form.bigEndian, root };
  if (root) readUses.set(doc, uses);
  return doc;
}

// The use counts fromCompact read with a document, for the first useCounts of it: taken
// once, since the document's edits change them.
const readUses = new WeakMap();

// The BYML type each letter of the compact form stands for.
const LETTER_TYPE = { n: "null", s: "string", b: "bool", i: "int", u: "uint", f: "float", l: "int64", m: "uint64", d: "double", x: "binary",
  y: "file", a: "array", h: "hash", p: "hashmap32", q: "hashmap64" };

// How many places refer to each container or big value of a BYML document (a Map): more
// than one for a shared node. A shared node's members are counted once.
export function useCounts(doc) {
  const read = readUses.get(doc);
  if (read) {
    readUses.delete(doc);
    return read;
  }
  const uses = new Map();
  const root = doc && doc.root;
  if (!root) return uses;
  uses.set(root, 1);
  const stack = [root];
  // Straight over the members, without children()'s object per member, and only the nodes
  // that can be shared: a string or number is its own node at every place.
  const use = (c) => {
    if (INLINE_TYPES.has(c.type)) return;
    const k = uses.get(c) || 0;
    uses.set(c, k + 1);
    if (k === 0 && BYML_CONTAINERS.includes(c.type)) stack.push(c);
  };
  while (stack.length) {
    const n = stack.pop(), v = n.value;
    if (n.type === "array") for (let i = 0; i < v.length; i++) use(v[i]);
    else for (let i = 0; i < v.length; i++) use(v[i][1]);
  }
  return uses;
}

// The BYML types a file holds in its container's slot, never shared.
const INLINE_TYPES = new Set(["string", "int", "uint", "float", "bool", "null"]);

// In how many places of the expanded tree a node appears: the sum over its parents' places
// (a node inside a shared node is changed everywhere that node is used).
export function placeCount(doc, node) {
  const root = doc && doc.root;
  if (!root) return 0;
  const parentsOf = new Map();
  const seen = new Set([root]);
  const stack = [root];
  while (stack.length) {
    const n = stack.pop();
    for (const c of children("byml", n)) {
      if (!parentsOf.has(c.node)) parentsOf.set(c.node, []);
      parentsOf.get(c.node).push(n);
      if (!seen.has(c.node) && isContainer("byml", c.node)) {
        seen.add(c.node);
        stack.push(c.node);
      }
    }
  }
  const memo = new Map([[root, 1]]);
  const places = (n) => {
    if (memo.has(n)) return memo.get(n);
    memo.set(n, 0);
    let k = 0;
    for (const p of parentsOf.get(n) || []) k += places(p);
    memo.set(n, k);
    return k;
  };
  return places(node);
}

// The document as plain JSON values in the server's form: a node used from several places
// written once with an "id" and as {"ref": id} elsewhere, so a heavily shared document
// stays its size on the way to the server or a share.
export function encodeShared(doc) {
  if (!doc || !doc.root) return doc;
  const uses = useCounts(doc);
  const ids = new Map();
  const enc = (n) => {
    if (ids.has(n)) return { ref: ids.get(n) };
    const out = { type: n.type };
    if ((uses.get(n) || 0) > 1 && isContainer("byml", n)) {
      ids.set(n, ids.size);
      out.id = ids.get(n);
    }
    if (n.unsorted) out.unsorted = true;
    if (n.type === "null") return out;
    if (n.type === "array") out.value = n.value.map(enc);
    else if (BYML_CONTAINERS.includes(n.type)) out.value = n.value.map((p) => [p[0], enc(p[1])]);
    else out.value = n.value;
    return out;
  };
  return { ...doc, root: enc(doc.root) };
}
