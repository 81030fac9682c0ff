// Read-only knowledge about the document: names of the enums, where a value comes from, and
// how a node's rows are laid out. The row metrics must match internal/graph/layout.go so that
// boxes placed by the server never overlap here.

export const NODE_WIDTH = 260;
export const HEADER = 30;
export const ROW = 18;
export const FOOTER = 8;

export const PARAM_TYPES = ["Int", "Bool", "Float", "String", "Vector3F", "Pointer"];
export const PLUG_KINDS = ["Generic", "_01", "Child", "Transition", "String", "Int", "_06", "_07", "_08", "_09"];
export const BB_TYPES = ["String", "S32", "U32", "F32", "Bool", "Vec3f", "VoidPtr"];

// Short labels used on plugs and in the legend.
export const TYPE_LABEL = { Int: "int", Bool: "bool", Float: "float", String: "string", Vector3F: "vec3f", Pointer: "pointer", U32: "u32" };

export const TYPE_COLOR = {
  Int: "#5aa9ff",
  Bool: "#ef6f7c",
  Float: "#8fd16a",
  String: "#f0c365",
  Vector3F: "#c58af9",
  Pointer: "#4fd1c5",
  U32: "#f59e5b",
};

export const LINK_COLOR = { child: "#aab2c0", jump: "#ff7ab8", query: "#3fc9a8", expr: "#b794f6" };

export const ELEMENT_TYPES = {
  0: "UserDefined", 1: "S32Selector", 2: "Sequential", 3: "Simultaneous", 4: "F32Selector",
  5: "StringSelector", 6: "RandomSelector", 7: "BoolSelector", 8: "Fork", 9: "Join", 10: "Alert",
  20: "Expression",
  100: "ModuleIF_Input_S32", 101: "ModuleIF_Input_F32", 102: "ModuleIF_Input_Vec3f",
  103: "ModuleIF_Input_String", 104: "ModuleIF_Input_Bool", 105: "ModuleIF_Input_Ptr",
  200: "ModuleIF_Output_S32", 201: "ModuleIF_Output_F32", 202: "ModuleIF_Output_Vec3f",
  203: "ModuleIF_Output_String", 204: "ModuleIF_Output_Bool", 205: "ModuleIF_Output_Ptr",
  300: "ModuleIF_Child", 400: "StateEnd", 500: "SplitTiming",
};

export const FLAG_QUERY = 1;
export const FLAG_MODULE_CALLER = 2;
export const FLAG_ROOT = 4;
export const FLAG_MULTI_V2 = 8;

const SELECTORS = new Set([1, 4, 5, 6, 7]);
// Selectors whose last child is the fallback when no condition matches.
const DEFAULT_LAST = new Set([1, 4, 5]);

export function typeName(t) {
  return ELEMENT_TYPES[t] ?? `Type${t}`;
}

// The class a node shows in its header: user-defined nodes are known by their name.
export function elementClass(e) {
  if (e.Type === 0) return e.Name || "UserDefined";
  return typeName(e.Type);
}

export function elementTitle(e) {
  if (e.Type === 0 || !e.Name) return elementClass(e);
  return `${typeName(e.Type)} ${e.Name}`;
}

export function isSelector(e) {
  return SELECTORS.has(e.Type);
}

// Header colours group nodes by what they do, so the tree reads at a glance.
export function headerColor(e) {
  if (e.Flags & FLAG_QUERY) return "#23614f";
  if (e.Flags & FLAG_MODULE_CALLER) return "#6b4a1f";
  if (SELECTORS.has(e.Type)) return "#7a4a14";
  if (e.Type === 2 || e.Type === 3 || e.Type === 8 || e.Type === 9) return "#2d4f86";
  if (e.Type === 20) return "#5b3a8a";
  if (e.Type >= 100 && e.Type < 400) return "#1f5f6b";
  if (e.Type === 400 || e.Type === 500 || e.Type === 10) return "#7a2d4b";
  return "#3a4150";
}

export function list(group, type) {
  return (group && group[type]) || [];
}

// Where a value with these flags comes from.
export function flagSource(flags) {
  const f = flags >>> 0;
  if (((f & 0xc2000000) >>> 0) === 0xc2000000) return { kind: "expr", index: f & 0xffff };
  if ((f & 0xc2000000) !== 0) return { kind: "bb", index: f & 0xffff, comp: (f >>> 26) & 3 };
  return { kind: "value" };
}

export const BB_FOR_PARAM = { Int: "S32", Bool: "Bool", Float: "F32", String: "String", Vector3F: "Vec3f", Pointer: "VoidPtr" };

export function bbParam(file, ptype, src) {
  const bb = file.Blackboard && file.Blackboard.Params;
  if (!bb) return null;
  // A vector component feeds a scalar from a vec3f parameter.
  const t = src.comp ? "Vec3f" : BB_FOR_PARAM[ptype];
  return list(bb, t)[src.index] || null;
}

export function bbLabel(file, ptype, src) {
  const p = bbParam(file, ptype, src);
  const comp = src.comp ? "." + "?xyz"[src.comp] : "";
  return p ? `$${p.Name}${comp}` : `$#${src.index}${comp}`;
}

export function formatFloat(v) {
  if (v === undefined || v === null) return "0";
  if (typeof v === "string") return v; // NaN or infinity, kept as its bits
  if (Object.is(v, -0)) return "-0";
  // Shortest text that reads back as the same f32.
  for (let p = 1; p <= 9; p++) {
    const s = v.toPrecision(p);
    if (Math.fround(Number(s)) === v) return String(Number(s));
  }
  return String(v);
}

export function formatValue(ptype, value, className) {
  const v = value || {};
  switch (ptype) {
    case "Int": return String(v.Int ?? 0);
    case "Bool": return (v.Int ?? 0) ? "true" : "false";
    case "Float": return formatFloat(v.Float);
    case "String": return JSON.stringify(v.String ?? "");
    case "Vector3F": {
      const vec = v.Vec || [0, 0, 0];
      return `(${vec.map(formatFloat).join(", ")})`;
    }
    case "Pointer": return className ? className.replace(/^.*::/, "") : "ptr";
  }
  return "";
}

// The rows of a node, top to bottom: properties, input/output pairs, children, jumps,
// attachments. Counts must agree with graph.NodeHeight.
export function nodeRows(file, e) {
  const rows = [];
  for (const t of PARAM_TYPES) {
    list(e.Properties, t).forEach((item, index) => rows.push({ kind: "prop", type: t, index, item }));
  }
  const ins = [], outs = [];
  for (const t of PARAM_TYPES) {
    list(e.Inputs, t).forEach((item, index) => ins.push({ type: t, index, item }));
    list(e.Outputs, t).forEach((item, index) => outs.push({ type: t, index, item }));
  }
  const n = Math.max(ins.length, outs.length);
  for (let k = 0; k < n; k++) rows.push({ kind: "io", input: ins[k] || null, output: outs[k] || null });
  const kids = list(e.Plugs, "Child");
  kids.forEach((plug, index) => rows.push({ kind: "child", index, plug, isDefault: DEFAULT_LAST.has(e.Type) && index === kids.length - 1 }));
  list(e.Plugs, "Transition").forEach((plug, index) => rows.push({ kind: "jump", index, plug }));
  (e.Attachments || []).forEach((a, index) => rows.push({ kind: "att", index, att: a, item: (file.Attachments || [])[a] }));
  return rows;
}

export function rowCount(e) {
  let props = 0, ins = 0, outs = 0;
  for (const t of PARAM_TYPES) {
    props += list(e.Properties, t).length;
    ins += list(e.Inputs, t).length;
    outs += list(e.Outputs, t).length;
  }
  return props + Math.max(ins, outs) + list(e.Plugs, "Child").length + list(e.Plugs, "Transition").length + (e.Attachments || []).length;
}

export function nodeHeight(e) {
  return HEADER + rowCount(e) * ROW + FOOTER;
}

export function propCount(e) {
  let n = 0;
  for (const t of PARAM_TYPES) n += list(e.Properties, t).length;
  return n;
}

// Row of input (type, j) among a node's rows.
export function inputRow(e, type, j) {
  let r = propCount(e);
  for (const t of PARAM_TYPES) {
    if (t === type) return r + j;
    r += list(e.Inputs, t).length;
  }
  return -1;
}

export function outputRow(e, type, k) {
  let r = propCount(e);
  for (const t of PARAM_TYPES) {
    if (t === type) return r + k;
    r += list(e.Outputs, t).length;
  }
  return -1;
}

function ioRows(e) {
  let ins = 0, outs = 0;
  for (const t of PARAM_TYPES) {
    ins += list(e.Inputs, t).length;
    outs += list(e.Outputs, t).length;
  }
  return Math.max(ins, outs);
}

export function childRow(e, k) {
  return propCount(e) + ioRows(e) + k;
}

export function jumpRow(e, k) {
  return propCount(e) + ioRows(e) + list(e.Plugs, "Child").length + k;
}

// The condition a selector puts on a child, as text.
export function branchCondition(file, e, plug, isDefault) {
  if (isDefault) return "default";
  const bbRef = (word, type) => {
    if (!(word >>> 31)) return null;
    const p = list(file.Blackboard && file.Blackboard.Params, type)[word & 0xffff];
    return p ? `$${p.Name}` : `$#${word & 0xffff}`;
  };
  switch (e.Type) {
    case 1: return "== " + (bbRef(plug.Word || 0, "S32") ?? String(plug.Int ?? 0));
    case 5: return "== " + JSON.stringify(plug.String ?? "");
    case 6: return "w " + formatFloat(plug.Float);
    case 4: {
      const lo = bbRef(plug.Word || 0, "F32") ?? formatFloat(plug.Float);
      const hi = bbRef(plug.MaxWord || 0, "F32") ?? formatFloat(plug.MaxFloat);
      return `[${lo}, ${hi}]`;
    }
  }
  return null;
}

// Every link of the document, as parallel arrays so culling a big graph stays cheap. Rows are
// -1 for a node's header.
export const EDGE_SOURCE = 0, EDGE_CHILD = 1, EDGE_JUMP = 2, EDGE_QUERY = 3;

export function computeEdges(file) {
  const els = file.Elements;
  const n = els.length;
  const from = [], fromRow = [], to = [], toRow = [], kind = [], color = [];
  const add = (a, ar, b, br, k, c) => {
    if (a < 0 || a >= n || b < 0 || b >= n) return;
    from.push(a); fromRow.push(ar); to.push(b); toRow.push(br); kind.push(k); color.push(c);
  };
  for (let i = 0; i < n; i++) {
    const e = els[i];
    let r = propCount(e);
    for (let ti = 0; ti < PARAM_TYPES.length; ti++) {
      const t = PARAM_TYPES[ti];
      const ins = list(e.Inputs, t);
      for (let j = 0; j < ins.length; j++, r++) {
        const input = ins[j];
        const srcs = input.Sources || [input.Source];
        for (const s of srcs) {
          if (s && s.Node >= 0 && s.Node < n) add(s.Node, outputRow(els[s.Node], t, s.Output), i, r, EDGE_SOURCE, ti);
        }
      }
    }
    const base = propCount(e) + ioRows(e);
    const kids = list(e.Plugs, "Child");
    kids.forEach((p, k) => add(i, base + k, p.Node, -1, EDGE_CHILD, -1));
    list(e.Plugs, "Transition").forEach((p, k) => add(i, base + kids.length + k, p.Node, -1, EDGE_JUMP, -1));
    for (const q of e.Queries || []) add(q, -1, i, -1, EDGE_QUERY, -1);
  }
  return {
    count: from.length,
    from: Int32Array.from(from), fromRow: Int32Array.from(fromRow),
    to: Int32Array.from(to), toRow: Int32Array.from(toRow),
    kind: Int8Array.from(kind), color: Int8Array.from(color),
  };
}

// Node indices reachable from a command's roots through children, jumps, queries and sources.
export function reachable(file, roots) {
  const els = file.Elements;
  const seen = new Set();
  const stack = roots.filter((r) => r >= 0 && r < els.length);
  while (stack.length) {
    const i = stack.pop();
    if (seen.has(i) || i < 0 || i >= els.length) continue;
    seen.add(i);
    const e = els[i];
    for (const p of list(e.Plugs, "Child")) stack.push(p.Node);
    for (const q of e.Queries || []) stack.push(q);
    for (const t of PARAM_TYPES) {
      for (const input of list(e.Inputs, t)) {
        for (const s of input.Sources || [input.Source]) if (s && s.Node >= 0) stack.push(s.Node);
      }
    }
  }
  return seen;
}
