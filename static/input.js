// Pointer, wheel and keyboard input on the canvas, turned into view changes, selections and
// edits. Dragging from a plug makes or breaks links (from a header's + handle, adds a
// child); dragging a node moves it; dragging empty space pans (or, with Shift, selects a box).
// Zoomed out below LOD_FULL, where titles are too small to read and nodes crowd the view, a
// drag is nearly always meant to pan: there a plain drag pans even over a node, and only a
// drag from a selected node moves (a click still selects, so click, then drag).

import { TYPE_COLOR, LINK_COLOR, NODE_WIDTH, nodeClass, childProblem } from "./model.js";
import { plugPoint, branchPoint } from "./metrics.js";
import { hasPendingText } from "./fields.js";
import { wheelAction, wheelMode } from "./wheel.js";
import { LOD_FULL } from "./render.js";

// The editor members this module uses: its context (context.js).
export const EDITOR_NEEDS = ["boxSelect=", "compare", "connect=", "copySelection", "deleteSelection", "doc", "duplicateSelection", "edits", "fitAll", "fitSelection", "focusNode", "follow", "grid", "hitTest", "hover=", "indexOf", "lastRefusal=", "nodeById", "paste", "redo", "renderer", "requestRender", "save", "searchStep", "select", "selection", "showMinimap=", "status", "tidy", "ui", "undo", "view", "viewChanged"];

const DRAG_THRESHOLD = 4;

export class Input {
  constructor(ed, canvas) {
    this.ed = ed;
    this.canvas = canvas;
    this.drag = null;
    this.pointers = new Map(); // for pinch zoom
    canvas.addEventListener("pointerdown", (e) => this.down(e));
    canvas.addEventListener("pointermove", (e) => this.move(e));
    canvas.addEventListener("pointerup", (e) => this.up(e));
    canvas.addEventListener("pointercancel", (e) => this.cancel(e));
    canvas.addEventListener("pointerleave", () => this.setHover(null));
    canvas.addEventListener("wheel", (e) => this.wheel(e), { passive: false });
    canvas.addEventListener("dblclick", (e) => this.dblclick(e));
    canvas.addEventListener("contextmenu", (e) => e.preventDefault());
    window.addEventListener("keydown", (e) => this.key(e));
  }

  local(e) {
    const r = this.canvas.getBoundingClientRect();
    return [e.clientX - r.left, e.clientY - r.top];
  }

  down(e) {
    const ed = this.ed;
    this.canvas.focus();
    this.pointers.set(e.pointerId, this.local(e));
    if (this.pointers.size === 2) {
      this.drag = { kind: "pinch", ...this.pinchState() };
      return;
    }
    if (e.button !== 0 && e.button !== 1) return;
    this.canvas.setPointerCapture(e.pointerId);
    const [sx, sy] = this.local(e);
    const hit = e.button === 1 ? { kind: "empty" } : ed.hitTest(sx, sy);
    const base = { sx, sy, moved: false, hit };
    if (hit.kind === "minimap") {
      this.drag = { ...base, kind: "minimap" };
      this.minimapTo(sx, sy);
    } else if (hit.kind === "plug" && (hit.side === "out" || hit.side === "in" || hit.side === "child" || hit.side === "branch")) {
      const [ax, ay] = this.plugPoint(hit);
      const color = hit.side === "child" || hit.side === "branch" ? LINK_COLOR.child : TYPE_COLOR[hit.type];
      this.drag = { ...base, kind: "link", start: [ax, ay], color };
    } else if ((hit.kind === "plug" || hit.kind === "node") && this.pansOver(hit.node, e)) {
      this.drag = { ...base, kind: "pan", lx: sx, ly: sy, node: hit.node };
    } else if (hit.kind === "plug" || hit.kind === "node") {
      const id = hit.node;
      if (e.shiftKey || e.ctrlKey || e.metaKey) ed.select([id], { add: true, toggle: true });
      else if (!ed.selection.has(id)) ed.select([id]);
      const ids = ed.selection.has(id) ? [...ed.selection].filter((k) => ed.nodeById(k)) : [];
      this.drag = { ...base, kind: "move", ids, orig: ids.map((k) => [k, ed.nodeById(k).x, ed.nodeById(k).y]), plainClick: !(e.shiftKey || e.ctrlKey || e.metaKey) };
    } else if (e.shiftKey) {
      this.drag = { ...base, kind: "box", add: e.ctrlKey || e.metaKey };
      ed.boxSelect = { sx0: sx, sy0: sy, sx1: sx, sy1: sy };
    } else {
      this.drag = { ...base, kind: "pan", lx: sx, ly: sy };
    }
  }

  // Whether a plain press on node id starts a pan rather than a move: zoomed out below
  // LOD_FULL, on a node not selected, without a selection modifier.
  pansOver(id, e) {
    return this.ed.view.zoom < LOD_FULL && !this.ed.selection.has(id) && !(e.shiftKey || e.ctrlKey || e.metaKey);
  }

  plugPoint(hit) {
    const n = this.ed.nodeById(hit.node);
    return hit.side === "branch" ? branchPoint(n) : plugPoint(n, hit.row, hit.side);
  }

  move(e) {
    const ed = this.ed;
    if (this.pointers.has(e.pointerId)) this.pointers.set(e.pointerId, this.local(e));
    const [sx, sy] = this.local(e);
    const d = this.drag;
    if (!d) {
      const hit = ed.hitTest(sx, sy);
      this.setHover(hit);
      // The whole of a cut-off title or plug name, as the canvas's tooltip.
      const tip = ed.renderer.tooltip(hit);
      if (this.canvas.title !== tip) this.canvas.title = tip;
      return;
    }
    if (d.kind === "pinch") {
      if (this.pointers.size < 2) return;
      const now = this.pinchState();
      ed.view.panBy(now.mx - d.mx, now.my - d.my);
      ed.view.zoomAt(now.mx, now.my, now.dist / d.dist);
      Object.assign(d, now);
      ed.viewChanged();
      return;
    }
    if (!d.moved && Math.hypot(sx - d.sx, sy - d.sy) < DRAG_THRESHOLD) return;
    d.moved = true;
    const z = ed.view.zoom;
    switch (d.kind) {
      case "minimap":
        this.minimapTo(sx, sy);
        break;
      case "pan":
        ed.view.panBy(sx - d.lx, sy - d.ly);
        d.lx = sx;
        d.ly = sy;
        ed.viewChanged();
        break;
      case "move": {
        const dx = (sx - d.sx) / z, dy = (sy - d.sy) / z;
        for (const [id, ox, oy] of d.orig) {
          const n = ed.nodeById(id);
          n.x = Math.round(ox + dx);
          n.y = Math.round(oy + dy);
          ed.grid.update(ed.indexOf(id), n);
        }
        ed.requestRender();
        break;
      }
      case "box":
        ed.boxSelect.sx1 = sx;
        ed.boxSelect.sy1 = sy;
        ed.requestRender();
        break;
      case "link": {
        const target = ed.hitTest(sx, sy);
        const reason = this.linkProblem(d.hit, target);
        ed.connect = { start: d.start, end: ed.view.toWorld(sx, sy), color: d.color, fromOutput: d.hit.side !== "in", refused: !!reason };
        if (reason && target.kind === "plug") ed.ui.tip(reason, e.clientX, e.clientY);
        else ed.ui.tip("");
        this.setHover(target.kind === "plug" ? target : null);
        ed.requestRender();
        break;
      }
    }
  }

  // Why releasing a link drag on target would not connect, or "" when it would. Releasing on
  // empty space is not a problem: it offers a new node that fits the link.
  linkProblem(from, target) {
    const ed = this.ed;
    if (from.side === "child" || from.side === "branch") {
      if (target.kind !== "node" && target.kind !== "plug") return "";
      return childProblem(ed.nodeById(from.node), ed.nodeById(target.node));
    }
    if (target.kind !== "plug") return "";
    if (target.side === "child" || target.side === "jump" || target.side === "branch") return "tree links go from a child plug to a node";
    if (target.side === from.side) return from.side === "out" ? "connect an output to an input" : "connect an input to an output";
    const [o, i] = from.side === "out" ? [from, target] : [target, from];
    return ed.edits.connectProblem(o.node, o.index, i.node, i.index);
  }

  up(e) {
    const ed = this.ed;
    this.pointers.delete(e.pointerId);
    const d = this.drag;
    this.drag = null;
    if (!d) return;
    if (d.kind === "pinch") return;
    const [sx, sy] = this.local(e);
    switch (d.kind) {
      case "pan":
        // A click that did not pan selects the node it was on, or clears the selection.
        if (!d.moved) ed.select(d.node === undefined ? [] : [d.node]);
        break;
      case "move":
        if (d.moved) ed.edits.moved(d.orig);
        else if (d.plainClick && ed.selection.size > 1) ed.select([d.hit.node]);
        break;
      case "box": {
        const b = ed.boxSelect;
        ed.boxSelect = null;
        const [x0, y0] = ed.view.toWorld(Math.min(b.sx0, b.sx1), Math.min(b.sy0, b.sy1));
        const [x1, y1] = ed.view.toWorld(Math.max(b.sx0, b.sx1), Math.max(b.sy0, b.sy1));
        const ids = [];
        ed.grid.query(x0, y0, x1, y1, (i) => ids.push(ed.doc.nodes[i].id));
        ed.select(ids, { add: d.add });
        break;
      }
      case "link":
        ed.connect = null;
        ed.ui.tip("");
        // A click follows the plug's link; on the + handle it offers a new child.
        if (d.moved) this.dropLink(d.hit, ed.hitTest(sx, sy));
        else if (d.hit.side === "branch") this.newChild(d.hit.node);
        else ed.follow(d.hit);
        ed.requestRender();
        break;
    }
  }

  dropLink(from, target) {
    const ed = this.ed;
    // Let go on empty space: the palette offers the classes that fit the link, and the node
    // chosen is created and linked in one step. Nothing is disconnected.
    if (from.side === "branch") {
      if (target.kind === "empty" && target.wx !== undefined) return this.newChild(from.node, [target.wx, target.wy]);
      if (target.kind !== "node" && target.kind !== "plug") return;
      const reason = this.linkProblem(from, target);
      if (reason) return this.refuse(reason);
      const res = ed.edits.addChild(from.node, target.node);
      if (!res.ok) return this.refuse(res.reason);
      ed.status(`#${target.node} added as child ${res.index} of #${from.node}`);
      return;
    }
    if (target.kind === "empty" && target.wx !== undefined) {
      const it = from.item;
      const label = `#${from.node}.${it.name || (from.side === "child" ? "child " + from.index : "")}`;
      ed.ui.openPalette(target.wx, target.wy, { link: { side: from.side, node: from.node, index: from.index, type: it.type, className: it.className, label } });
      return;
    }
    if (from.side === "child") {
      if (target.kind !== "node" && target.kind !== "plug") return;
      const reason = this.linkProblem(from, target);
      if (reason) return this.refuse(reason);
      const res = ed.edits.setChild(from.node, from.index, target.node);
      if (!res.ok) this.refuse(res.reason);
      return;
    }
    if (target.kind !== "plug") return;
    const reason = this.linkProblem(from, target);
    if (reason) return this.refuse(reason);
    const [o, i] = from.side === "out" ? [from, target] : [target, from];
    const res = ed.edits.connect(o.node, o.index, i.node, i.index);
    if (!res.ok) this.refuse(res.reason);
    else ed.status(`Connected #${o.node}.${o.item.name} → #${i.node}.${i.item.name}`);
  }

  // The palette of the classes a child may be, for a new child of node id placed at world
  // point at (right of the node by default); the node chosen is added and linked in one step.
  newChild(id, at) {
    const ed = this.ed, n = ed.nodeById(id);
    if (!n) return;
    ed.ui.openPalette(...(at || [n.x + NODE_WIDTH + 80, n.y + 15]), { link: { side: "branch", node: id, label: `#${id} ${nodeClass(n)}` } });
  }

  refuse(reason) {
    this.ed.lastRefusal = reason;
    this.ed.status(`Not connected: ${reason}`, "error");
    this.ed.ui.toast(`Not connected: ${reason}`, "error");
  }

  cancel(e) {
    this.pointers.delete(e.pointerId);
    const d = this.drag;
    this.drag = null;
    this.ed.connect = null;
    this.ed.boxSelect = null;
    if (d && d.kind === "move" && d.moved) {
      for (const [id, ox, oy] of d.orig) {
        const n = this.ed.nodeById(id);
        n.x = ox;
        n.y = oy;
        this.ed.grid.update(this.ed.indexOf(id), n);
      }
    }
    this.ed.requestRender();
  }

  pinchState() {
    const [a, b] = [...this.pointers.values()];
    return { mx: (a[0] + b[0]) / 2, my: (a[1] + b[1]) / 2, dist: Math.max(1, Math.hypot(a[0] - b[0], a[1] - b[1])) };
  }

  minimapTo(sx, sy) {
    const m = this.ed.renderer.minimapRect;
    if (!m) return;
    this.ed.view.centerOn(m.gx0 + (sx - m.x) / m.s, m.gy0 + (sy - m.y) / m.s);
    this.ed.viewChanged();
  }

  setHover(hit) {
    const ed = this.ed;
    const h = hit && hit.kind === "plug" ? { node: hit.node, row: hit.row, side: hit.side === "in" || hit.side === "branch" ? hit.side : "out" } : null;
    const same = (a, b) => (!a && !b) || (a && b && a.node === b.node && a.row === b.row && a.side === b.side);
    const moves = hit && hit.kind === "node" && !(ed.view.zoom < LOD_FULL && !ed.selection.has(hit.node));
    this.canvas.style.cursor = hit && hit.kind === "plug" ? "crosshair" : moves ? "move" : hit && hit.kind === "minimap" ? "pointer" : "";
    if (same(h, ed.hover)) return;
    ed.hover = h;
    ed.requestRender();
  }

  wheel(e) {
    const ed = this.ed;
    e.preventDefault();
    const [sx, sy] = this.local(e);
    const a = wheelAction(e, wheelMode(), ed.view.height);
    if (a.zoom) ed.view.zoomAt(sx, sy, a.zoom);
    else ed.view.panBy(a.pan[0], a.pan[1]);
    ed.viewChanged();
  }

  dblclick(e) {
    const [sx, sy] = this.local(e);
    const hit = this.ed.hitTest(sx, sy);
    if (hit.kind === "node") this.ed.focusNode(hit.node);
    else if (hit.kind === "empty") this.ed.ui.openPalette(hit.wx, hit.wy);
  }

  // Runs the first binding of KEYS that matches the key event, if it applies in the current
  // state: most keys do nothing while a field has the focus or before a file is open.
  key(e) {
    const ed = this.ed;
    const t = e.target;
    const typing = !!t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT" || t.isContentEditable);
    const b = KEYS.find((b) => b.combos.some((c) => matches(c, e)));
    if (!b) return;
    if ((typing && b.when !== "any") || (!ed.doc && b.when === "doc")) return;
    // run returns false to leave the event to the browser.
    if (b.run(ed, e, typing) !== false) e.preventDefault();
  }
}

// Keyboard commands. Each binding is matched from the keys it shows in the help, so the help
// cannot list a key the editor does not handle, nor miss one it does. when: "any" works even
// while typing in a field, "idle" needs no field focused, "doc" also needs an open file.
const step = 80;
const zoomBy = (ed, f) => {
  ed.view.zoomAt(ed.view.width / 2, ed.view.height / 2, f);
  ed.viewChanged();
};
const pan = (ed, dx, dy) => {
  ed.view.panBy(dx, dy);
  ed.viewChanged();
};
export const KEYS = [
  { keys: ["Escape"], help: "Close / clear the selection", when: "any", run: (ed, e, typing) => {
    if (ed.ui.closeOverlays()) return;
    if (typing) e.target.blur();
    else ed.select([]);
    return false;
  } },
  { keys: ["Ctrl+S"], help: "Save (build and download)", when: "any", run: (ed) => void ed.save() },
  { keys: ["Ctrl+O"], help: "Open a file", when: "any", run: (ed) => ed.ui.pickFile() },
  { keys: ["Ctrl+F"], help: "Search", when: "any", run: (ed) => ed.ui.focusSearch() },
  { keys: ["F3"], help: "Next search result", when: "any", run: (ed) => ed.searchStep(1) },
  { keys: ["Shift+F3"], help: "Previous search result", when: "any", run: (ed) => ed.searchStep(-1) },
  // In a field with unapplied typing these undo the typing (see fields.js).
  { keys: ["Ctrl+Z"], help: "Undo", when: "any", run: (ed, e, typing) => (typing && hasPendingText(e.target) ? false : ed.undo()) },
  { keys: ["Ctrl+Shift+Z", "Ctrl+Y"], help: "Redo", when: "any", run: (ed, e, typing) => (typing && hasPendingText(e.target) ? false : ed.redo()) },
  { keys: ["?"], help: "This help", when: "idle", run: (ed) => ed.ui.toggleHelp() },
  { keys: ["Ctrl+C"], help: "Copy the selected nodes (also to other tabs)", when: "doc", run: (ed) => ed.copySelection() },
  { keys: ["Ctrl+V"], help: "Paste nodes, also from another file", when: "doc", run: (ed) => ed.paste() },
  { keys: ["Ctrl+D"], help: "Duplicate", when: "doc", run: (ed) => ed.duplicateSelection() },
  { keys: ["Ctrl+A"], help: "Select all", when: "doc", run: (ed) => ed.select(ed.doc.nodes.map((n) => n.id)) },
  { keys: ["A", "Ctrl+K"], help: "Add a node", when: "doc", run: (ed) => ed.ui.openPalette() },
  { keys: ["Delete", "Backspace"], help: "Delete the selection", when: "doc", run: (ed) => ed.deleteSelection() },
  { keys: ["F"], help: "Fit everything", when: "doc", run: (ed) => ed.fitAll() },
  // Dragged nodes are pinned; added, pasted and duplicated ones are not, so Tidy places them.
  { keys: ["L", "Shift+L"], help: "Tidy: lay out unpinned nodes; Shift: all (and unpin them). Dragged nodes are pinned; added or pasted ones are not", when: "doc",
    run: (ed, e) => void ed.tidy({ reset: e.shiftKey }) },
  { keys: ["."], help: "Fit the selection", when: "doc", run: (ed) => ed.fitSelection() },
  { keys: ["M"], help: "Toggle the minimap", when: "doc", run: (ed) => {
    ed.showMinimap = !ed.showMinimap;
    ed.requestRender();
  } },
  { keys: ["N"], help: "Next change while comparing, else next search result", when: "doc", run: (ed) => ed.compare.step(1) || ed.searchStep(1) },
  { keys: ["P"], help: "Previous change while comparing", when: "doc", run: (ed) => ed.compare.step(-1) },
  { keys: ["Shift+N"], help: "Previous search result", when: "doc", run: (ed) => ed.searchStep(-1) },
  { keys: ["+", "="], help: "Zoom in", when: "doc", run: (ed) => zoomBy(ed, 1.25) },
  { keys: ["-", "_"], help: "Zoom out", when: "doc", run: (ed) => zoomBy(ed, 0.8) },
  { keys: ["0"], help: "Zoom to 100%", when: "doc", run: (ed) => {
    ed.view.zoom = 1;
    ed.viewChanged();
  } },
  { keys: ["ArrowLeft"], help: "Pan left", when: "doc", run: (ed) => pan(ed, step, 0) },
  { keys: ["ArrowRight"], help: "Pan right", when: "doc", run: (ed) => pan(ed, -step, 0) },
  { keys: ["ArrowUp"], help: "Pan up", when: "doc", run: (ed) => pan(ed, 0, step) },
  { keys: ["ArrowDown"], help: "Pan down", when: "doc", run: (ed) => pan(ed, 0, -step) },
];
for (const b of KEYS) b.combos = b.keys.map(parseCombo);

// "Ctrl+Shift+Z" → {ctrl, shift, key}. A single letter stands for the letter key, so "A"
// means the key a and "Shift+N" the key n with Shift.
function parseCombo(text) {
  if (text.length === 1) return { ctrl: false, shift: false, key: text };
  const parts = text.split("+");
  const key = parts.pop();
  return { ctrl: parts.includes("Ctrl"), shift: parts.includes("Shift"), key };
}

// Ctrl stands for Cmd on a Mac. Letters and named keys must match Shift exactly; for symbols
// Shift is part of how they are typed (? is Shift+/ on most layouts), so it is not checked.
function matches(c, e) {
  if (c.ctrl !== (e.ctrlKey || e.metaKey)) return false;
  if (/^[A-Z]$/.test(c.key)) return e.key.toUpperCase() === c.key && e.shiftKey === c.shift;
  if (c.key.length > 1) return e.key === c.key && e.shiftKey === c.shift;
  return e.key === c.key;
}

const KEY_NAMES = { Escape: "Esc", ArrowLeft: "←", ArrowRight: "→", ArrowUp: "↑", ArrowDown: "↓", "-": "−" };

// What the help shows for a binding's keys.
export function keyLabel(b) {
  return b.keys.map((k) => k.split(/\+(?!$)/).map((p) => KEY_NAMES[p] ?? p).join("+")).join(" / ");
}

// Pointer gestures and the search field's own keys, shown in the help before the key
// bindings.
export const GESTURES = [
  ["Drag empty space / Shift + wheel", `Pan (zoomed out below ${Math.round(LOD_FULL * 100)}%, a drag over a node not selected pans too)`],
  ["Wheel / Ctrl + wheel / pinch", "Zoom at the cursor (the toolbar's Wheel setting makes the wheel pan)"],
  ["Shift + drag", "Box select (Ctrl adds)"],
  ["Click / Shift+click", "Select / add to selection"],
  ["Drag a node", `Move the selection (zoomed out below ${Math.round(LOD_FULL * 100)}%: click a node, then drag it)`],
  ["Drag output → input", "Connect (types must match)"],
  ["Drag a plug to empty space", "Add a node that fits, linked"],
  ["Drag a child plug → node", "Point the child at the node"],
  ["Drag a header's + (right end) → space / node", "New child: a node that fits, or the node let go on"],
  ["Right-click", "Actions for a node, plug, link or the canvas"],
  ["Click a plug", "Follow its link"],
  ["Double-click a node", "Centre it"],
  ["Double-click empty space", "Add a node"],
  ["Enter / Shift+Enter in the search field", "Next / previous search result"],
];

// Every row of the help: gestures, then one row per key binding.
export const SHORTCUTS = [...GESTURES, ...KEYS.map((b) => [keyLabel(b), b.help])];

