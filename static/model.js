// Read-only knowledge about the editor document (format "ainb-editor-document/2", declared in
// internal/graph/types.go): names of node types, where a value comes from, what a node's
// rows say, the links of the graph. No DOM, so it runs under node too.
//
// Vocabulary: a document holds nodes; a node has properties, inputs and outputs, children
// (each with a condition on selectors), jumps, queries and attachments. Where a property's or
// input's value comes from is its source. Commands are entry points; the blackboard holds
// parameters; expressions are functions; modules are other files. Nodes are referred to by
// id everywhere; a node's place in doc.nodes is only its index in the file.

export * from "./metrics.js";
export { FORMAT } from "./document.js";
import { rowCounts, childRow, jumpRow, outputRow, clampCoord, takesChildren, headerTitle } from "./metrics.js";

// The value types of properties, inputs and outputs, in the order a file groups them.
export const VALUE_TYPES = ["int", "bool", "float", "string", "vec3f", "pointer"];
// The types of blackboard parameters; "u32" only in 0x408 files.
export const BLACKBOARD_TYPES = ["string", "int", "u32", "float", "bool", "vec3f", "pointer"];

export const TYPE_LABEL = { int: "int", bool: "bool", float: "float", string: "string", vec3f: "vec3f", pointer: "pointer", u32: "u32" };

export const TYPE_COLOR = {
  int: "#5aa9ff",
  bool: "#ef6f7c",
  float: "#8fd16a",
  string: "#f0c365",
  vec3f: "#c58af9",
  pointer: "#4fd1c5",
  u32: "#f59e5b",
};

export const LINK_COLOR = { child: "#aab2c0", jump: "#ff7ab8", query: "#3fc9a8", expression: "#b794f6", blackboard: "#f59e5b" };

// Built-in node types. "UserDefined" nodes are known by their class name.
export const NODE_TYPES = [
  "UserDefined", "S32Selector", "Sequential", "Simultaneous", "F32Selector", "StringSelector",
  "RandomSelector", "BoolSelector", "Fork", "Join", "Alert", "Expression",
  "ModuleIF_Input_S32", "ModuleIF_Input_F32", "ModuleIF_Input_Vec3f", "ModuleIF_Input_String",
  "ModuleIF_Input_Bool", "ModuleIF_Input_Ptr",
  "ModuleIF_Output_S32", "ModuleIF_Output_F32", "ModuleIF_Output_Vec3f", "ModuleIF_Output_String",
  "ModuleIF_Output_Bool", "ModuleIF_Output_Ptr",
  "ModuleIF_Child", "StateEnd", "SplitTiming",
];

// The node flags, as the document names them, with what the UI calls them.
export const NODE_FLAGS = [["query", "query"], ["moduleCaller", "module caller"], ["residentInit", "resident init (root)"], ["multiParamV2", "multi-input v2"]];

const SELECTORS = new Set(["S32Selector", "F32Selector", "StringSelector", "RandomSelector", "BoolSelector"]);
const BSA_SELECTORS = new Set(["SelectorBSABrainVerbUpdater", "SelectorBSAFormChangeUpdater"]);
// Selectors whose last child is the default branch, taken when no condition matches.
const DEFAULT_LAST = new Set(["S32Selector", "F32Selector", "StringSelector"]);

// The class a node shows in its header (metrics.headerTitle, whose length sizes the header).
export function nodeClass(n) {
  return headerTitle(n);
}

export function nodeTitle(n) {
  if (n.type === "UserDefined" || !n.name) return nodeClass(n);
  return `${n.type} ${n.name}`;
}

export function isSelector(n) {
  return SELECTORS.has(n.type) || (n.type === "UserDefined" && BSA_SELECTORS.has(n.name));
}

export function hasDefaultChild(n) {
  return DEFAULT_LAST.has(n.type);
}

// Why node target cannot be a child of node parent, or "": a node is never its own child,
// and a query node (read by others) neither runs children nor runs as one. The drags, the
// picker and the new-child handle refuse with this; the edit module itself does not.
export function childProblem(parent, target) {
  if (!parent || !target) return "no such node";
  if (!takesChildren(parent)) return `#${parent.id} is a query node: others read it, it runs no children`;
  if (target.id === parent.id) return "a node cannot be its own child";
  if (target.query) return `#${target.id} is a query node: others read it, it never runs as a child`;
  return "";
}

// The condition a new child of a selector starts with.
export function newCondition(n, k) {
  switch (n.type) {
    case "S32Selector": return { int: k };
    case "F32Selector": return { min: 0, max: 0 };
    case "StringSelector": return { string: "" };
    case "RandomSelector": return { weight: 1 };
  }
  if (isSelector(n) && n.type === "UserDefined") return { int: k };
  return undefined;
}

// Header colours group nodes by what they do, so the tree reads at a glance.
export function headerColor(n) {
  if (n.query) return "#23614f";
  if (n.moduleCaller) return "#6b4a1f";
  const t = n.type;
  if (SELECTORS.has(t)) return "#7a4a14";
  if (t === "Sequential" || t === "Simultaneous" || t === "Fork" || t === "Join") return "#2d4f86";
  if (t === "Expression") return "#5b3a8a";
  if (t.startsWith("ModuleIF_")) return "#1f5f6b";
  if (t === "StateEnd" || t === "SplitTiming" || t === "Alert") return "#7a2d4b";
  return "#3a4150";
}

// ---- sources

// What kind of source s is: "node", "blackboard", "expression" or "value" (none: the
// immediate value).
export function sourceKind(s) {
  if (!s) return "value";
  if (s.node !== undefined && s.node !== null) return "node";
  if (s.blackboard !== undefined && s.blackboard !== null) return "blackboard";
  if (s.expression !== undefined && s.expression !== null) return "expression";
  return "value";
}

// The blackboard type a value of type t reads from a source: a vec3f parameter when a
// component is named, otherwise a parameter of the same type.
export function blackboardTypeFor(t, component) {
  return component ? "vec3f" : t;
}

export function blackboardLabel(doc, s) {
  const p = (doc.blackboard || [])[s.blackboard];
  const comp = s.component ? "." + s.component : "";
  return p ? `$${p.name}${comp}` : `$#${s.blackboard}${comp}`;
}

export function expressionText(doc, k) {
  const fns = doc.expressions && doc.expressions.functions;
  return fns && fns[k] ? fns[k].text : undefined;
}

// Calls fn(source, type, owner) for every source object of a node or attachment: the
// source of each property and input and every entry of each multi-input.
export function forEachSource(owner, fn) {
  for (const p of owner.properties || []) if (p.source) fn(p.source, p.type, p, false);
  for (const input of owner.inputs || []) {
    if (input.source) fn(input.source, input.type, input, false);
    if (input.sources) for (const s of input.sources) fn(s, input.type, input, true);
  }
}

// ---- values

export function formatFloat(v) {
  if (v === undefined || v === null) return "0";
  if (typeof v === "string") {
    switch (v.toLowerCase()) {
      case "0x80000000": return "-0";
      case "0x7f800000": return "inf";
      case "0xff800000": return "-inf";
    }
    return v; // a NaN, shown as its bits
  }
  if (Object.is(v, -0)) return "-0";
  // Shortest text that reads back as the same f32.
  for (let p = 1; p <= 9; p++) {
    const s = v.toPrecision(p);
    if (Math.fround(Number(s)) === v) return String(Number(s));
  }
  return String(v);
}

export function formatValue(type, value, className) {
  switch (type) {
    case "int": return String(value ?? 0);
    case "u32": return String((value ?? 0) >>> 0);
    case "bool": return value ? "true" : "false";
    case "float": return formatFloat(value);
    case "string": return JSON.stringify(value ?? "");
    case "vec3f": {
      const vec = Array.isArray(value) ? value : [0, 0, 0];
      return `(${vec.map(formatFloat).join(", ")})`;
    }
    case "pointer": return className ? className.replace(/^.*::/, "") : "ptr";
  }
  return "";
}

// The condition of a selector's child, as text; null when the child has none.
export function conditionText(doc, n, child, isDefault) {
  if (isDefault) return "default";
  const c = child.condition;
  if (!c) return null;
  const bb = (k) => {
    const p = (doc.blackboard || [])[k];
    return p ? `$${p.name}` : `$#${k}`;
  };
  if (c.min !== undefined || c.max !== undefined || c.minBlackboard !== undefined || c.maxBlackboard !== undefined) {
    const lo = c.minBlackboard !== undefined ? bb(c.minBlackboard) : formatFloat(c.min);
    const hi = c.maxBlackboard !== undefined ? bb(c.maxBlackboard) : formatFloat(c.max);
    return `[${lo}, ${hi}]`;
  }
  if (c.weight !== undefined) return "w " + (c.blackboard !== undefined ? bb(c.blackboard) : formatFloat(c.weight));
  if (c.string !== undefined) return "== " + JSON.stringify(c.string);
  if (c.blackboard !== undefined) return "== " + bb(c.blackboard);
  if (c.int !== undefined) return "== " + String(c.int);
  return null;
}

// ---- the graph

// Puts every node's position within ±MAX_COORD (see clampCoord) and returns how many nodes
// it moved. Documents from the server are inside already; an autosave or a document some
// other tool changed may not be, and one position of 1e308 used to freeze the page.
export function clampPositions(doc) {
  let moved = 0;
  for (const n of doc.nodes) {
    const x = clampCoord(n.x), y = clampCoord(n.y);
    if (x !== n.x || y !== n.y) {
      n.x = x;
      n.y = y;
      moved++;
    }
  }
  return moved;
}

// Maps node ids to their index in doc.nodes.
export function indexById(doc) {
  const m = new Map();
  doc.nodes.forEach((n, i) => m.set(n.id, i));
  return m;
}

// The id the next new node gets.
export function nextNodeId(doc) {
  let max = -1;
  for (const n of doc.nodes) if (n.id > max) max = n.id;
  return max + 1;
}

// The rows of a node, top to bottom, for drawing: {kind: "property", index, item},
// {kind: "io", input: {index, item} | null, output: {index, item} | null},
// {kind: "child", index, child, isDefault}, {kind: "jump", index, jump},
// {kind: "attachment", index, ref, item}.
export function nodeRows(doc, n) {
  const rows = [];
  const c = rowCounts(n);
  (n.properties || []).forEach((item, index) => rows.push({ kind: "property", index, item }));
  for (let k = 0; k < c.io; k++) {
    rows.push({
      kind: "io",
      input: k < c.inputs ? { index: k, item: n.inputs[k] } : null,
      output: k < c.outputs ? { index: k, item: n.outputs[k] } : null,
    });
  }
  const def = hasDefaultChild(n);
  (n.children || []).forEach((child, index) => rows.push({ kind: "child", index, child, isDefault: def && index === c.children - 1 }));
  (n.jumps || []).forEach((jump, index) => rows.push({ kind: "jump", index, jump }));
  (n.attachments || []).forEach((ref, index) => rows.push({ kind: "attachment", index, ref, item: (doc.attachments || [])[ref] }));
  return rows;
}

// Every link of the document, as parallel arrays of node indices so culling a big graph
// stays cheap. Rows are -1 for a node's header. color is the value type's index for sources.
export const EDGE_SOURCE = 0, EDGE_CHILD = 1, EDGE_JUMP = 2, EDGE_QUERY = 3;

// A source reading an output its node does not have: the games ship such inputs, and the
// document keeps the index the file stores in missingOutput instead of output.
export function missingOutput(s) {
  return !!s && s.missingOutput !== undefined && s.missingOutput !== null;
}

// What the document says that leads nowhere, as warnings for the problems panel: children to
// no node (node null) and sources of a missing output. They do not keep the file from being
// built: the game loads such files, and a build writes them as they were stored.
// Each is {node: id, path, message, warning: true}.
export function danglingWarnings(doc) {
  const out = [];
  const index = indexById(doc);
  doc.nodes.forEach((n, i) => {
    (n.children || []).forEach((c, k) => {
      if (c.node === null) out.push({ node: n.id, path: `nodes[${i}].children[${k}].node`, message: `child ${c.name ? `"${c.name}"` : k} leads to no node`, warning: true });
    });
    (n.inputs || []).forEach((input, j) => {
      const warn = (s, path) => {
        if (!missingOutput(s)) return;
        const a = index.get(s.node);
        const src = a === undefined ? `#${s.node}` : `#${s.node} ${nodeClass(doc.nodes[a])}`;
        out.push({ node: n.id, path: `nodes[${i}].inputs[${j}].${path}.missingOutput`, warning: true,
          message: `input ${input.name} reads ${input.type} output ${s.missingOutput} of ${src}, which has no such output` });
      };
      warn(input.source, "source");
      (input.sources || []).forEach((s, m) => warn(s, `sources[${m}]`));
    });
  });
  return out;
}

// Ends of links that lead nowhere, drawn as stubs: node index and row, and kind: EDGE_CHILD
// leaves a child row to the right, EDGE_SOURCE enters an input row from the left.
function danglingStubs(nodes) {
  const node = [], row = [], kind = [];
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i];
    (n.children || []).forEach((c, k) => {
      if (c.node === null) { node.push(i); row.push(childRow(n, k)); kind.push(EDGE_CHILD); }
    });
    const p = (n.properties || []).length;
    (n.inputs || []).forEach((input, j) => {
      if (missingOutput(input.source) || (input.sources || []).some(missingOutput)) { node.push(i); row.push(p + j); kind.push(EDGE_SOURCE); }
    });
  }
  return { count: node.length, node: Int32Array.from(node), row: Int32Array.from(row), kind: Int8Array.from(kind) };
}

export function computeEdges(doc, index = indexById(doc)) {
  const nodes = doc.nodes;
  // expr: the expression a source link's output goes through (drawn as a badge), or -1.
  const from = [], fromRow = [], to = [], toRow = [], kind = [], color = [], expr = [];
  const add = (a, ar, b, br, k, c, x = -1) => {
    from.push(a); fromRow.push(ar); to.push(b); toRow.push(br); kind.push(k); color.push(c); expr.push(x);
  };
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i];
    const ins = n.inputs || [];
    const p = (n.properties || []).length;
    for (let j = 0; j < ins.length; j++) {
      const input = ins[j];
      const ti = VALUE_TYPES.indexOf(input.type);
      const link = (s) => {
        if (!s || s.node === undefined || s.node === null || missingOutput(s)) return;
        const a = index.get(s.node);
        if (a === undefined) return;
        const x = Number.isInteger(s.expression) && s.expression >= 0 ? s.expression : -1;
        add(a, outputRow(nodes[a], s.output || 0), i, p + j, EDGE_SOURCE, ti, x);
      };
      link(input.source);
      if (input.sources) for (const s of input.sources) link(s);
    }
    (n.children || []).forEach((c, k) => {
      const b = index.get(c.node);
      if (b !== undefined) add(i, childRow(n, k), b, -1, EDGE_CHILD, -1);
    });
    (n.jumps || []).forEach((jp, k) => {
      const b = index.get(jp.node);
      if (b !== undefined) add(i, jumpRow(n, k), b, -1, EDGE_JUMP, -1);
    });
    for (const q of n.queries || []) {
      const a = index.get(q);
      if (a !== undefined) add(a, -1, i, -1, EDGE_QUERY, -1);
    }
  }
  return {
    count: from.length,
    from: Int32Array.from(from), fromRow: Int32Array.from(fromRow),
    to: Int32Array.from(to), toRow: Int32Array.from(toRow),
    kind: Int8Array.from(kind), color: Int8Array.from(color), expr: Int32Array.from(expr),
    stubs: danglingStubs(nodes),
  };
}

// Ids of the nodes reachable from the given node ids through children, queries and sources.
export function reachable(doc, roots, index = indexById(doc)) {
  const seen = new Set();
  const stack = roots.filter((r) => index.has(r));
  while (stack.length) {
    const id = stack.pop();
    if (seen.has(id) || !index.has(id)) continue;
    seen.add(id);
    const n = doc.nodes[index.get(id)];
    for (const c of n.children || []) stack.push(c.node);
    for (const q of n.queries || []) stack.push(q);
    for (const input of n.inputs || []) {
      if (input.source && input.source.node !== undefined) stack.push(input.source.node);
      for (const s of input.sources || []) if (s.node !== undefined) stack.push(s.node);
    }
  }
  return seen;
}

// A deep copy of plain JSON data.
export function clone(v) {
  return v === undefined ? undefined : structuredClone(v);
}

// New nodes as the add-node palette offers them. nodeFrom is shaped like an existing node:
// same class, properties, inputs and outputs with their values, but no links to other nodes,
// no children, jumps, queries or attachments. builtinNode is a bare built-in node. 0x404
// files keep a state record on every node.
export function nodeFrom(n, doc) {
  const c = clone(n);
  for (const k of ["id", "pinned", "children", "jumps", "queries", "attachments", "actions"]) delete c[k];
  for (const input of c.inputs || []) {
    if (Array.isArray(input.sources)) input.sources = [];
    delete input.source;
    delete input.usesDefault;
  }
  if (doc.version < 0x407 && !c.stateInfo) c.stateInfo = { desiredState: "", unknown: [0, 0, 0, 0] };
  return c;
}

export function builtinNode(type, doc) {
  const n = { type, name: "", guid: "" };
  if (doc.version < 0x407) n.stateInfo = { desiredState: "", unknown: [0, 0, 0, 0] };
  return n;
}
