// Picking a node on the canvas: the source of an input (click the node whose output feeds
// it), the target of a child, or a new child. A bar over the canvas says what to click; Esc
// or the bar's Cancel leaves without a change. Nothing is ever guessed: a node with several
// outputs of the input's type asks which one.

import { h } from "./dom.js";
import { TYPE_LABEL, nodeClass, childProblem } from "./model.js";

// The editor members this module uses: its context (context.js).
export const EDITOR_NEEDS = ["doc", "edits", "hitTest", "nodeById", "on", "status", "ui"];

export class Picker {
  constructor(ed, canvas) {
    this.ed = ed;
    this.canvas = canvas;
    this.mode = null;
    this.bar = null;
    // Capture: a click while picking is the pick, never a selection or a drag.
    canvas.addEventListener("pointerdown", (e) => this.down(e), { capture: true });
    window.addEventListener("keydown", (e) => {
      if (this.mode && e.key === "Escape") {
        e.preventDefault();
        e.stopImmediatePropagation();
        this.cancel();
      }
    }, { capture: true });
    ed.on("document", () => this.cancel(true));
  }

  // mode: {kind: "source", ref, type, className, label} for an input's source; {kind:
  // "child", node, index, label} to point a child at a node; {kind: "branch", node, label}
  // for a new child.
  start(mode) {
    if (!this.ed.doc) return;
    this.cancel(true);
    this.ed.ui.closeOverlays();
    this.mode = mode;
    const what = mode.kind === "source"
      ? `Click the node whose ${TYPE_LABEL[mode.type] || mode.type} output feeds ${mode.label}`
      : mode.kind === "child" ? `Click the node ${mode.label} should run` : `Click the node to add as a child of ${mode.label}`;
    this.bar = h("div.picker-bar", { role: "status" }, h("span", {}, what + " · Esc cancels"),
      h("button.small", { onclick: () => this.cancel() }, "Cancel"));
    this.canvas.parentElement.append(this.bar);
    this.canvas.classList.add("picking");
    this.ed.status(what);
  }

  cancel(quiet) {
    if (!this.mode) return;
    this.mode = null;
    this.bar?.remove();
    this.menu?.remove();
    this.bar = this.menu = null;
    this.canvas.classList.remove("picking");
    if (!quiet) this.ed.status("Picking cancelled; nothing changed");
  }

  local(e) {
    const r = this.canvas.getBoundingClientRect();
    return [e.clientX - r.left, e.clientY - r.top];
  }

  down(e) {
    if (!this.mode || e.button !== 0) return;
    this.menu?.remove();
    const ed = this.ed, m = this.mode;
    const hit = ed.hitTest(...this.local(e));
    // Empty space and the minimap still pan, so the node can be found first.
    if (hit.kind !== "node" && hit.kind !== "plug") return;
    e.preventDefault();
    e.stopImmediatePropagation();
    const n = ed.nodeById(hit.node);
    if (m.kind !== "source") {
      const reason = childProblem(ed.nodeById(m.node), n);
      if (reason) return this.refuse(`${reason}; click another node`);
      return this.finish(m.kind === "child" ? ed.edits.setChild(m.node, m.index, n.id) : ed.edits.addChild(m.node, n.id), n);
    }
    if (n.id === m.ref.node) return this.refuse("a node cannot feed its own input");
    const outs = (n.outputs || []).map((o, k) => [o, k]).filter(([o]) => o.type === m.type);
    if (!outs.length) return this.refuse(`#${n.id} ${nodeClass(n)} has no ${TYPE_LABEL[m.type]} output; click another node`);
    // Clicked right on an output of the type: that one.
    if (hit.kind === "plug" && hit.side === "out" && outs.some(([, k]) => k === hit.index)) return this.setSource(n, hit.index);
    if (outs.length === 1) return this.setSource(n, outs[0][1]);
    this.menu = h("div.ctx-menu.picker-menu", { role: "menu" },
      h("div.ctx-head", {}, `Which output of #${n.id}?`),
      outs.map(([o, k]) => h("button.ctx-item", { dataset: { output: k }, onclick: () => this.setSource(n, k) }, o.name)));
    this.menu.style.left = `${e.clientX}px`;
    this.menu.style.top = `${e.clientY}px`;
    document.body.append(this.menu);
  }

  setSource(n, k) {
    const m = this.mode;
    // A node output that went through an expression keeps it with the node picked instead.
    const item = this.ed.edits.item(m.ref);
    const old = item && (m.ref.source !== undefined ? (item.sources || [])[m.ref.source] : item.source);
    const expression = old && old.node !== undefined && old.node !== null ? old.expression : undefined;
    const res = this.ed.edits.setSource(m.ref, { node: n.id, output: k, expression });
    return this.finish(res, n, n.outputs[k].name);
  }

  finish(res, n, output) {
    const m = this.mode;
    // ok false with no reason: it already was so.
    if (!res.ok && res.reason) return this.refuse(res.reason);
    this.cancel(true);
    this.ed.status(m.kind === "source" ? `${m.label} now reads #${n.id}.${output}` : m.kind === "child" ? `${m.label} now runs #${n.id}` : `#${n.id} added as a child of ${m.label}`);
  }

  refuse(reason) {
    this.ed.status(`Not picked: ${reason}`, "error");
  }
}
