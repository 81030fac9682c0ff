// The context menu (right click) on the canvas: the common actions for what is under the
// pointer, a node, a plug, a link or empty space. Each action is a method of the editor, the
// palette, the picker or the edit module; the menu only offers them.

import { h } from "./dom.js";
import { NODE_WIDTH, nodeClass, EDGE_SOURCE, EDGE_CHILD, EDGE_JUMP, EDGE_QUERY, TYPE_LABEL, takesChildren } from "./model.js";
import { rowAt, rowCounts, rowY } from "./metrics.js";

// The editor members this module uses: its context (context.js).
export const EDITOR_NEEDS = ["catalogue", "copySelection", "deleteSelection", "doc", "duplicateSelection", "edges", "edits", "fitAll", "focusNode", "follow", "hitTest", "nodeById", "openPalette", "paste", "picker", "readClipboard", "select", "selection", "tidy", "ui", "view"];

export class ContextMenu {
  constructor(ed, canvas) {
    this.ed = ed;
    this.canvas = canvas;
    this.el = null;
    canvas.addEventListener("contextmenu", (e) => {
      e.preventDefault();
      this.open(e.clientX, e.clientY);
    });
  }

  close() {
    this.el?.remove();
    this.el = null;
  }

  // Opens the menu for what is at client point (cx, cy). Returns the menu element.
  open(cx, cy) {
    const ed = this.ed;
    this.close();
    if (!ed.doc) return null;
    const r = this.canvas.getBoundingClientRect();
    const sx = cx - r.left, sy = cy - r.top;
    let hit = ed.hitTest(sx, sy);
    // Plug hits carry no world point; the palette opened from one needs it.
    if (hit.wx === undefined) {
      const [wx, wy] = ed.view.toWorld(sx, sy);
      hit = { ...hit, wx, wy };
    }
    if (hit.kind === "empty" || hit.kind === "minimap") {
      const link = hit.kind === "empty" ? linkAt(ed, hit.wx, hit.wy) : null;
      if (link) hit = link;
    }
    const items = this.items(hit);
    if (!items.length) return null;
    const menu = h("div.ctx-menu", { role: "menu" },
      items.map((it) => it.head ? h("div.ctx-head", {}, it.head)
        : h("button.ctx-item", { role: "menuitem", disabled: !!it.disabled, dataset: { action: it.id },
          onclick: () => {
            this.close();
            it.run();
          } }, it.label)));
    // The backdrop closes the menu on any click outside it; it is an overlay, so Esc closes
    // it too.
    const backdrop = h("div.overlay.ctx-backdrop", {
      onpointerdown: (e) => e.target === backdrop && this.close(),
      oncontextmenu: (e) => {
        e.preventDefault();
        this.close();
      },
    }, menu);
    ed.ui.root.append(backdrop);
    menu.style.left = `${Math.min(cx, window.innerWidth - menu.offsetWidth - 4)}px`;
    menu.style.top = `${Math.min(cy, window.innerHeight - menu.offsetHeight - 4)}px`;
    this.el = backdrop;
    menu.querySelector("button:not([disabled])")?.focus();
    return backdrop;
  }

  items(hit) {
    const ed = this.ed, doc = ed.doc;
    const palette = (link, at) => ed.openPalette({ at: at || [hit.wx, hit.wy], link });
    switch (hit.kind) {
      case "empty":
        return [
          { head: "Canvas" },
          { id: "add", label: "Add a node here…", run: () => palette(null) },
          { id: "paste", label: "Paste here", disabled: !ed.readClipboard(), run: () => ed.paste([hit.wx, hit.wy]) },
          { id: "select-all", label: "Select all", run: () => ed.select(doc.nodes.map((n) => n.id)) },
          { id: "fit", label: "Fit everything", run: () => ed.fitAll() },
          { id: "tidy", label: "Tidy", run: () => ed.tidy() },
          { id: "import", label: "Learn node classes from files…", run: () => ed.catalogue.pick(false) },
        ];
      case "node": {
        const n = ed.nodeById(hit.node);
        const label = `#${n.id} ${nodeClass(n)}`;
        const select = () => ed.selection.has(n.id) || ed.select([n.id]);
        return [
          { head: label },
          { id: "inspect", label: "Inspect", run: () => ed.select([n.id]) },
          ...this.childItems(n),
          { id: "duplicate", label: "Duplicate", run: () => (select(), ed.duplicateSelection()) },
          { id: "copy", label: "Copy", run: () => (select(), ed.copySelection()) },
          { id: "delete", label: "Delete", run: () => (select(), ed.deleteSelection()) },
          { id: "centre", label: "Centre", run: () => ed.focusNode(n.id) },
        ];
      }
      case "plug":
        return this.plugItems(hit);
      case "link":
        return this.linkItems(hit);
    }
    return [];
  }

  // Adding a child to node n: a new node from the palette, or one picked on the canvas.
  childItems(n) {
    const ed = this.ed, label = `#${n.id} ${nodeClass(n)}`, no = !takesChildren(n);
    return [
      { id: "add-child", label: "Add a child: new node…", disabled: no, run: () => ed.openPalette({ at: [n.x + NODE_WIDTH + 80, n.y + 15], link: { side: "branch", node: n.id, label } }) },
      { id: "pick-child", label: "Add a child: pick a node…", disabled: no, run: () => ed.picker.start({ kind: "branch", node: n.id, label }) },
    ];
  }

  plugItems(hit) {
    const ed = this.ed;
    const n = ed.nodeById(hit.node);
    if (hit.side === "branch") return [{ head: `#${n.id} ${nodeClass(n)} (new child)` }, ...this.childItems(n)];
    const it = hit.item;
    const label = `#${n.id}.${it.name || (hit.side === "child" ? "child " + hit.index : "")}`;
    const [px, py] = [hit.wx, hit.wy];
    switch (hit.side) {
      case "in": {
        const connected = it.sources ? it.sources.length > 0 : !!it.source;
        const link = { side: "in", node: n.id, index: hit.index, type: it.type, className: it.className, label };
        return [
          { head: `${label} (${TYPE_LABEL[it.type]} input)` },
          { id: "source-new", label: "Source: new node…", run: () => ed.openPalette({ at: [px, py], link }) },
          { id: "source-pick", label: "Source: pick a node…", run: () => ed.picker.start({ kind: "source", ref: { node: n.id, list: "inputs", index: hit.index }, type: it.type, className: it.className, label }) },
          { id: "disconnect", label: it.sources ? "Remove the last source" : "Disconnect", disabled: !connected, run: () => ed.edits.disconnect(n.id, hit.index) },
          { id: "follow", label: "Go to the source", disabled: !connected, run: () => ed.follow(hit) },
        ];
      }
      case "out": {
        const link = { side: "out", node: n.id, index: hit.index, type: it.type, className: it.className, label };
        return [
          { head: `${label} (${TYPE_LABEL[it.type]} output)` },
          { id: "reader-new", label: "New node reading it…", run: () => ed.openPalette({ at: [px + 80, py], link }) },
          { id: "follow", label: "Go to the first reader", run: () => ed.follow(hit) },
        ];
      }
      case "child": {
        const link = { side: "child", node: n.id, index: hit.index, label };
        return [
          { head: `${label} (child)` },
          { id: "child-new", label: "Child: new node…", run: () => ed.openPalette({ at: [px + 80, py], link }) },
          { id: "child-pick", label: "Child: pick a node…", run: () => ed.picker.start({ kind: "child", node: n.id, index: hit.index, label }) },
          { id: "follow", label: "Go to the child", run: () => ed.follow(hit) },
          { id: "remove-child", label: "Remove this child", run: () => ed.edits.removeChild(n.id, hit.index) },
        ];
      }
      case "jump":
        return [
          { head: `${label} (jump)` },
          { id: "follow", label: "Go to the target", run: () => ed.follow(hit) },
          { id: "remove-jump", label: "Remove this jump", run: () => ed.edits.removeJump(n.id, hit.index) },
        ];
    }
    return [];
  }

  linkItems(hit) {
    const ed = this.ed;
    const a = ed.doc.nodes[hit.from], b = ed.doc.nodes[hit.to];
    const items = [{ head: hit.title }];
    items.push({ id: "go-from", label: `Go to #${a.id} ${nodeClass(a)}`, run: () => ed.focusNode(a.id) });
    items.push({ id: "go-to", label: `Go to #${b.id} ${nodeClass(b)}`, run: () => ed.focusNode(b.id) });
    if (hit.edge === EDGE_SOURCE) items.push({ id: "disconnect", label: "Disconnect", run: () => ed.edits.disconnect(b.id, hit.input, hit.source) });
    if (hit.edge === EDGE_CHILD) items.push({ id: "remove-child", label: "Remove this child", run: () => ed.edits.removeChild(a.id, hit.child) });
    if (hit.edge === EDGE_JUMP) items.push({ id: "remove-jump", label: "Remove this jump", run: () => ed.edits.removeJump(a.id, hit.child) });
    if (hit.edge === EDGE_QUERY) {
      const k = (b.queries || []).indexOf(a.id);
      items.push({ id: "remove-query", label: "Stop reading this query", disabled: k < 0, run: () => ed.edits.removeQuery(b.id, k) });
    }
    return items;
  }
}

// The link nearest a world point, within a few screen pixels, as {kind: "link", edge, from,
// to (node indices), title, and input + source (sources) or child (children, jumps)}, or
// null. Links are the curves render.js draws between the same end points.
export function linkAt(ed, wx, wy) {
  const E = ed.edges, nodes = ed.doc.nodes;
  if (!E || !E.count) return null;
  const tol = Math.max(4, 6 / ed.view.zoom);
  const straight = ed.view.zoom < 0.1;
  let best = -1, bestD = tol;
  for (let k = 0; k < E.count; k++) {
    const pa = nodes[E.from[k]], pb = nodes[E.to[k]];
    const ax = pa.x + NODE_WIDTH, bx = pb.x;
    const ay = rowY(pa, E.fromRow[k]), by = rowY(pb, E.toRow[k]);
    const c = Math.max(40, Math.abs(bx - ax) * 0.5);
    if (wx < Math.min(ax, bx) - c - tol || wx > Math.max(ax, bx) + c + tol || wy < Math.min(ay, by) - tol || wy > Math.max(ay, by) + tol) continue;
    let px = ax, py = ay;
    for (let s = 1; s <= 24; s++) {
      const t = s / 24, u = 1 - t;
      const x = straight ? ax + (bx - ax) * t : u * u * u * ax + 3 * u * u * t * (ax + c) + 3 * u * t * t * (bx - c) + t * t * t * bx;
      const y = straight ? ay + (by - ay) * t : u * u * u * ay + 3 * u * u * t * ay + 3 * u * t * t * by + t * t * t * by;
      const d = segDist(wx, wy, px, py, x, y);
      if (d < bestD) {
        bestD = d;
        best = k;
      }
      px = x;
      py = y;
    }
  }
  if (best < 0) return null;
  const a = nodes[E.from[best]], b = nodes[E.to[best]], edge = E.kind[best];
  const out = { kind: "link", edge, from: E.from[best], to: E.to[best] };
  if (edge === EDGE_SOURCE) {
    out.input = E.toRow[best] - rowCounts(b).ioStart;
    const output = rowAt(a, E.fromRow[best]).output;
    const input = b.inputs[out.input];
    if (input.sources) out.source = input.sources.findIndex((s) => s.node === a.id && (s.output || 0) === output);
    out.title = `Link #${a.id}.${a.outputs[output].name} → #${b.id}.${input.name}`;
  } else if (edge === EDGE_CHILD || edge === EDGE_JUMP) {
    const c = rowCounts(a);
    out.child = E.fromRow[best] - (edge === EDGE_CHILD ? c.childStart : c.jumpStart);
    out.title = `${edge === EDGE_CHILD ? "Child" : "Jump"} #${a.id} → #${b.id}`;
  } else out.title = `#${b.id} reads query #${a.id}`;
  return out;
}

function segDist(x, y, x0, y0, x1, y1) {
  const dx = x1 - x0, dy = y1 - y0;
  const l = dx * dx + dy * dy;
  const t = l ? Math.max(0, Math.min(1, ((x - x0) * dx + (y - y0) * dy) / l)) : 0;
  return Math.hypot(x - x0 - t * dx, y - y0 - t * dy);
}
