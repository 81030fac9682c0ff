// Node geometry, defined once: the size of a node's box and where each of its rows sits.
// internal/graph uses the same numbers (graph.NodeWidth, HeaderHeight, RowHeight,
// FooterHeight) so that boxes the server lays out never overlap here; metrics_test.go checks
// that the two agree. Everything here reads only the document: the renderer's text cache is
// never needed to know what is where. No DOM, so it runs under node too.
//
// A node's rows, top to bottom: its properties, then its inputs beside its outputs (one row
// per pair), then its children, its jumps and its attachments.

export const NODE_WIDTH = 260;
export const HEADER = 30;
export const ROW = 18;
export const FOOTER = 8;

// A long title wraps onto more lines of the header, each TITLE_LINE high: the header holds
// TITLE_FIRST characters of the title on its first line (beside the id and badges) and
// TITLE_MORE on each further one, at most MAX_TITLE_LINES (graph.TitleLine, TitleFirst,
// TitleMore, MaxTitleLines). Counted in characters (code points), not measured, so that the
// server lays out the boxes drawn here; render.js wraps the text into the lines counted.
export const TITLE_LINE = 16;
export const TITLE_FIRST = 24;
export const TITLE_MORE = 30;
export const MAX_TITLE_LINES = 3;

// Positions lie within ±MAX_COORD on both axes (graph.MaxCoord): the server refuses
// documents beyond it, and clampCoord keeps what the page makes itself (pastes from a
// clipboard another tab wrote, views from links) inside it. Past 2^53 adding a grid step
// no longer moves a coordinate, and a loop over the grid never ends.
export const MAX_COORD = 1e9;

// clampCoord is v within ±MAX_COORD, and 0 for what is not a number at all.
export function clampCoord(v) {
  if (typeof v !== "number" || Number.isNaN(v)) return 0;
  return v < -MAX_COORD ? -MAX_COORD : v > MAX_COORD ? MAX_COORD : v;
}

const len = (a) => (a ? a.length : 0);

// How many rows of each kind a node has, and where each kind starts.
export function rowCounts(n) {
  const properties = len(n.properties), inputs = len(n.inputs), outputs = len(n.outputs);
  const children = len(n.children), jumps = len(n.jumps), attachments = len(n.attachments);
  const io = Math.max(inputs, outputs);
  return {
    properties, inputs, outputs, io, children, jumps, attachments,
    ioStart: properties,
    childStart: properties + io,
    jumpStart: properties + io + children,
    attachmentStart: properties + io + children + jumps,
    rows: properties + io + children + jumps + attachments,
  };
}

export function rowCount(n) {
  return len(n.properties) + Math.max(len(n.inputs), len(n.outputs)) + len(n.children) + len(n.jumps) + len(n.attachments);
}

export function nodeWidth() {
  return NODE_WIDTH;
}

// What a node's header says: the class of a user-defined node, the type otherwise
// (graph.Title; model.js's nodeClass).
export function headerTitle(n) {
  const t = n.type === "UserDefined" ? n.name || "UserDefined" : n.type;
  // A shape without a type (a box being placed) has no title and a one-line header.
  return typeof t === "string" ? t : "";
}

// How many lines the header gives a title of that many characters (graph.TitleLines).
export function titleLines(chars) {
  if (chars <= TITLE_FIRST) return 1;
  return Math.min(MAX_TITLE_LINES, 1 + Math.ceil((chars - TITLE_FIRST) / TITLE_MORE));
}

// Code points, as Go counts runes. The few ASCII titles are the common case.
function chars(s) {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xdc00 || c > 0xdfff) n++; // a low surrogate ends a pair counted at its high one
  }
  return n;
}

// The height of node n's header, its title's lines included (graph.HeaderHeightOf).
export function headerHeight(n) {
  const t = headerTitle(n);
  return t.length <= TITLE_FIRST ? HEADER : HEADER + (titleLines(chars(t)) - 1) * TITLE_LINE;
}

export function nodeHeight(n) {
  return headerHeight(n) + rowCount(n) * ROW + FOOTER;
}

// Rows of a node's parts.
export function propertyRow(n, j) {
  return j;
}

export function inputRow(n, j) {
  return len(n.properties) + j;
}

export function outputRow(n, k) {
  return len(n.properties) + k;
}

export function childRow(n, k) {
  return len(n.properties) + Math.max(len(n.inputs), len(n.outputs)) + k;
}

export function jumpRow(n, k) {
  return childRow(n, len(n.children)) + k;
}

export function attachmentRow(n, k) {
  return jumpRow(n, len(n.jumps)) + k;
}

// What row r of a node holds: {kind: "property", index}, {kind: "io", input, output} (each
// an index or -1), {kind: "child" | "jump" | "attachment", index}, or null past the last row.
export function rowAt(n, r) {
  if (!(r >= 0)) return null;
  const c = rowCounts(n);
  if (r < c.ioStart) return { kind: "property", index: r };
  if (r < c.childStart) {
    const k = r - c.ioStart;
    return { kind: "io", input: k < c.inputs ? k : -1, output: k < c.outputs ? k : -1 };
  }
  if (r < c.jumpStart) return { kind: "child", index: r - c.childStart };
  if (r < c.attachmentStart) return { kind: "jump", index: r - c.jumpStart };
  if (r < c.rows) return { kind: "attachment", index: r - c.attachmentStart };
  return null;
}

// The world y of the middle of row r, or of the header when r < 0.
export function rowY(n, r) {
  return r < 0 ? n.y + HEADER / 2 : n.y + headerHeight(n) + r * ROW + ROW / 2;
}

// The world point of a plug: on the left edge for an input, on the right for everything else.
export function plugPoint(n, r, side) {
  return [side === "in" ? n.x : n.x + NODE_WIDTH, rowY(n, r)];
}

// Whether a node may run children: every node but a query, which others read and which
// never runs a branch (no file has a query with children, nor a query as a child).
export function takesChildren(n) {
  return !n.query;
}

// The world point of a node's new-child handle: the right edge of its header, beside the
// rows' plugs and outside every row, so no row moves for it.
export function branchPoint(n) {
  return [n.x + NODE_WIDTH, n.y + HEADER / 2];
}

// The row under a world y, -1 on the header, or null outside the node's rows.
export function rowUnder(n, wy) {
  if (wy < n.y || wy > n.y + nodeHeight(n)) return null;
  const hh = headerHeight(n);
  if (wy < n.y + hh) return -1;
  const r = Math.floor((wy - n.y - hh) / ROW);
  return r < rowCount(n) ? r : null;
}

// What part of node n is at world point (wx, wy), with plugs caught within `near` world
// units of the edge: {part: "header"}, {part: "row", row, at}, {part: "plug", side, row, at}
// (side "in", "out", "child" or "jump"), {part: "plug", side: "branch", row: -1} for the
// header's new-child handle (near > 0 and a node that takesChildren), or null when the point
// is not on the node.
export function hitNode(n, wx, wy, near = 8) {
  const x0 = n.x, x1 = n.x + NODE_WIDTH;
  if (wx < x0 - near || wx > x1 + near) return null;
  const r = rowUnder(n, wy);
  if (r === null) return null;
  const inside = wx >= x0 && wx <= x1;
  if (r < 0) {
    if (near > 0 && Math.abs(wx - x1) <= near && takesChildren(n)) return { part: "plug", side: "branch", row: -1 };
    return inside ? { part: "header" } : null;
  }
  const at = rowAt(n, r);
  if (at.kind === "io" && at.input >= 0 && Math.abs(wx - x0) <= near) return { part: "plug", side: "in", row: r, at };
  if (Math.abs(wx - x1) <= near) {
    if (at.kind === "io" && at.output >= 0) return { part: "plug", side: "out", row: r, at };
    if (at.kind === "child" || at.kind === "jump") return { part: "plug", side: at.kind, row: r, at };
  }
  return inside ? { part: "row", row: r, at } : null;
}
