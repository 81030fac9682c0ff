// The tree view of a BYML or AAMP file: a list of rows, one per visible entry (expanded
// containers show their entries below them), of which only the rows in sight are in the DOM,
// so a file of a few hundred thousand entries scrolls like a small one. Above it an edit bar
// for the selected entry (path, name, type, value, add, remove, move) and search; the YAML
// view (treeyaml.js) takes the rows' place when asked. The view holds no document state of
// its own: each file's session (treefiles.js) keeps its expansions, selection and scroll.

import { h, clear } from "./dom.js";
import { KEYS } from "./input.js";
import { count } from "./counts.js";
import {
  flatten, valueText, editText, typeOf, isContainer, childCount, search, resolvePath, renamable, reorderable,
  addableTypes, rootOf, useCounts, placeCount,
} from "./treemodel.js";
import { TreeYaml } from "./treeyaml.js";
import { TreeCompare } from "./treecompare.js";

// The editor members this module uses: its context (context.js).
export const EDITOR_NEEDS = ["root", "status", "ui"];

export const ROW_HEIGHT = 22;
const OVERSCAN = 8;
const SEARCH_DELAY = 150;

// Keyboard commands of the tree, matched like the editor's KEYS (input.js) from the keys the
// help shows. when: "any" works while typing in a field too, "idle" needs the rows (or
// nothing) focused. Ctrl+Z and Ctrl+Y are the editor's own: they undo and redo tree edits
// while a tree is shown.
export const TREE_KEYS = [
  { keys: ["Ctrl+F"], help: "Search keys and values", when: "any", run: (v) => v.focusField("search") },
  { keys: ["F3"], help: "Next search result", when: "any", run: (v) => v.searchStep(1) },
  { keys: ["Shift+F3"], help: "Previous search result", when: "any", run: (v) => v.searchStep(-1) },
  { keys: ["Ctrl+G"], help: "Go to a path (/Actors/12/name)", when: "any", run: (v) => v.focusField("path") },
  { keys: ["ArrowDown"], help: "Next entry", when: "idle", run: (v) => v.step(1) },
  { keys: ["ArrowUp"], help: "Previous entry", when: "idle", run: (v) => v.step(-1) },
  { keys: ["PageDown"], help: "A page down", when: "idle", run: (v) => v.step(v.pageRows()) },
  { keys: ["PageUp"], help: "A page up", when: "idle", run: (v) => v.step(-v.pageRows()) },
  { keys: ["Home"], help: "First entry", when: "idle", run: (v) => v.step(-Infinity) },
  { keys: ["End"], help: "Last entry", when: "idle", run: (v) => v.step(Infinity) },
  { keys: ["ArrowRight"], help: "Expand, or go to the first entry inside", when: "idle", run: (v) => v.right() },
  { keys: ["ArrowLeft"], help: "Collapse, or go to the container", when: "idle", run: (v) => v.left() },
  { keys: ["*"], help: "Expand everything inside the entry", when: "idle", run: (v) => v.expandAll() },
  { keys: ["Enter"], help: "Edit the value (Enter applies it)", when: "idle", run: (v) => v.focusField("value") },
  { keys: ["F2"], help: "Rename the entry", when: "idle", run: (v) => v.focusField("key") },
  { keys: ["Insert", "Ctrl+Enter"], help: "Add an entry of the type chosen beside Add", when: "idle", run: (v) => v.add() },
  { keys: ["Delete"], help: "Remove the entry", when: "idle", run: (v) => v.remove() },
  { keys: ["Alt+ArrowUp"], help: "Move the entry up", when: "idle", run: (v) => v.move(-1) },
  { keys: ["Alt+ArrowDown"], help: "Move the entry down", when: "idle", run: (v) => v.move(1) },
  { keys: ["N"], help: "Next change (Compare with…)", when: "idle", run: (v) => v.compare.step(1) },
  { keys: ["P"], help: "Previous change (Compare with…)", when: "idle", run: (v) => v.compare.step(-1) },
];
for (const b of TREE_KEYS) b.combos = b.keys.map(parseCombo);

// Rows of the help for the tree keys.
export const TREE_SHORTCUTS = [
  ["Click ▸ / double-click", "Expand or collapse an entry"],
  ...TREE_KEYS.map((b) => [b.keys.join(" / "), b.help]),
  ["Ctrl+Z / Ctrl+Y", "Undo / redo tree edits"],
];

function parseCombo(text) {
  if (text.length === 1) return { ctrl: false, shift: false, alt: false, key: text };
  const parts = text.split("+");
  const key = parts.pop();
  return { ctrl: parts.includes("Ctrl"), shift: parts.includes("Shift"), alt: parts.includes("Alt"), key };
}

// Ctrl stands for Cmd on a Mac; a symbol is typed with or without Shift, as in input.js.
function matches(c, e) {
  if (c.ctrl !== (e.ctrlKey || e.metaKey) || !!c.alt !== e.altKey) return false;
  if (/^[A-Z]$/.test(c.key)) return e.key.toUpperCase() === c.key && e.shiftKey === c.shift;
  if (c.key.length > 1) return e.key === c.key && e.shiftKey === c.shift;
  return e.key === c.key;
}

// The graph's keys that act on the open graph: kept from the hidden graph while a tree shows.
const GRAPH_KEYS = KEYS.filter((b) => b.when === "doc");

export class TreeView {
  constructor(ed, files) {
    this.ed = ed;
    this.files = files;
    this.session = null;
    this.rows = [];
    this.rowIndex = new Map(); // node -> index in rows
    this.hits = [];
    this.hitSet = new Set();
    this.hitIndex = -1;
    this.renderQueued = false;
    this.build();
    this.yaml = new TreeYaml(ed, this, this.yamlHost);
    window.addEventListener("keydown", (e) => this.key(e), true);
    new ResizeObserver(() => this.queueRender()).observe(this.scroller);
  }

  build() {
    this.compare = new TreeCompare(this);
    const field = (key, attrs = {}) => h("input.text", { type: "text", dataset: { key }, spellcheck: false, ...attrs });
    this.title = h("span.tree-title", {});
    this.searchInput = field("tree.search", { type: "search", placeholder: "Search keys and values" });
    this.searchCount = h("span.muted.tree-count", { dataset: { key: "tree.search-count" } });
    this.searchTimer = 0;
    this.searchPending = false; // an edit's search again waits in searchTimer
    this.searchRuns = 0; // searches run, for tests
    this.searchInput.addEventListener("input", () => {
      clearTimeout(this.searchTimer);
      this.searchTimer = setTimeout(() => this.runSearch(), SEARCH_DELAY);
    });
    this.searchInput.addEventListener("keydown", (e) => {
      if (e.key !== "Enter") return;
      e.preventDefault();
      clearTimeout(this.searchTimer);
      if (!this.session || this.session.query !== this.searchInput.value) this.runSearch();
      this.searchStep(e.shiftKey ? -1 : 1);
    });
    this.yamlButton = h("button.small", { dataset: { action: "tree-yaml" }, title: "Show the file as YAML (oead's conventions), to edit and apply", onclick: () => this.yaml.toggle() }, "YAML");
    const head = h("div.tree-head", {}, this.title,
      h("div.tree-search", {}, this.searchInput,
        h("button.small", { title: "Previous result (Shift+Enter, Shift+F3)", onclick: () => this.searchStep(-1) }, "↑"),
        h("button.small", { title: "Next result (Enter, F3)", onclick: () => this.searchStep(1) }, "↓"), this.searchCount),
      h("button.small", { dataset: { action: "tree-expand" }, title: "Expand everything inside the selected entry (*), or the whole file", onclick: () => this.expandAll() }, "Expand all"),
      h("button.small", { dataset: { action: "tree-collapse" }, title: "Collapse every entry", onclick: () => this.collapseAll() }, "Collapse all"),
      this.yamlButton, this.compare.compareButton, this.compare.mergeButton);

    this.pathInput = field("tree.path", { placeholder: "/path/of/an/entry", title: "The selected entry's path; type one and press Enter to go there (Ctrl+G)" });
    this.pathInput.addEventListener("keydown", (e) => {
      if (e.key !== "Enter") return;
      e.preventDefault();
      this.goTo(this.pathInput.value);
    });
    this.keyInput = field("tree.key", { placeholder: "name", title: "The entry's name or key: change it and press Enter to rename (F2)" });
    this.keyInput.addEventListener("change", () => this.applyKey());
    this.typeEl = h("span.tree-type-label", { dataset: { key: "tree.type" } });
    this.valueInput = field("tree.value", { placeholder: "value", title: "The entry's value, of its own type: change it and press Enter (Enter in the tree)" });
    this.valueInput.addEventListener("change", () => this.applyValue());
    // Esc in a field of the bar gives up what was typed there, a refused value included: the
    // bar shows the selected entry as it is again, and the rows take the focus.
    for (const f of [this.pathInput, this.keyInput, this.valueInput]) {
      f.addEventListener("keydown", (e) => {
        if (e.key !== "Escape" || e.ctrlKey || e.metaKey || e.altKey || e.shiftKey) return;
        e.preventDefault();
        e.stopPropagation();
        this.renderBar();
        this.scroller.focus({ preventScroll: true });
      });
    }
    this.addType = h("select", { dataset: { key: "tree.add-type" }, title: "The type of the entry Add makes" });
    const btn = (label, action, title, onclick) => h("button.small", { dataset: { action }, title, onclick }, label);
    this.addButton = btn("Add", "tree-add", "Add an entry: into the selected container, or after the selected entry (Insert)", () => this.add());
    this.removeButton = btn("Remove", "tree-remove", "Remove the selected entry (Delete)", () => this.remove());
    this.upButton = btn("↑", "tree-up", "Move the entry up (Alt+↑)", () => this.move(-1));
    this.downButton = btn("↓", "tree-down", "Move the entry down (Alt+↓)", () => this.move(1));
    const bar = h("div.tree-edit", {},
      h("label.tree-field.wide", {}, h("span.muted", {}, "Path"), this.pathInput),
      h("label.tree-field", {}, h("span.muted", {}, "Name"), this.keyInput),
      h("label.tree-field", {}, h("span.muted", {}, "Type"), this.typeEl),
      h("label.tree-field.wide", {}, h("span.muted", {}, "Value"), this.valueInput),
      h("div.tree-tools", {}, this.addType, this.addButton, this.removeButton, this.upButton, this.downButton));

    this.spacer = h("div.tree-spacer", {});
    this.rowsEl = h("div.tree-rows", { role: "tree" });
    this.scroller = h("div.tree-scroll", { tabindex: "0", "aria-label": "Entries" }, this.spacer, this.rowsEl);
    this.scroller.addEventListener("scroll", () => {
      if (this.session) this.session.scrollTop = this.scroller.scrollTop;
      this.queueRender();
    });
    this.rowsEl.addEventListener("click", (e) => this.click(e));
    this.rowsEl.addEventListener("dblclick", (e) => this.dblclick(e));
    this.scroller.addEventListener("click", (e) => {
      if (e.target === this.scroller || e.target === this.spacer) this.select(null);
    });
    this.yamlHost = h("div.tree-yaml", { hidden: true });
    this.warningsEl = h("div.tree-warnings", { hidden: true, dataset: { key: "tree.warnings" } });
    this.el = h("div.tree-pane", { hidden: true, dataset: { view: "tree" } }, head, this.warningsEl, bar, this.compare.el, this.scroller, this.yamlHost, ...this.compare.inputs);
    this.ed.ui.stage.append(this.el);
  }

  // ---- sessions

  show(session) {
    const first = !this.session || this.session !== session;
    this.session = session;
    this.el.hidden = false;
    this.title.textContent = `${session.name} · ${session.kind === "byml" ? `BYML v${session.doc.version}${session.doc.bigEndian ? ", big endian" : ""}` : `AAMP ${session.doc.type}`}`;
    if (first) {
      clearTimeout(this.searchTimer);
      this.searchPending = false;
      this.searchInput.value = session.query || "";
      this.hits = [];
      this.hitSet = new Set();
      this.hitIndex = -1;
      if (session.query) this.runSearch({ keep: true });
    }
    this.yaml.show(session);
    this.refresh();
    this.scroller.scrollTop = session.scrollTop || 0;
    this.renderRows();
  }

  hide() {
    this.el.hidden = true;
    this.session = null;
    this.yaml.show(null);
  }

  get kind() {
    return this.session.kind;
  }

  // After the document, its expansions or its selection changed: the rows again.
  refresh() {
    const s = this.session;
    if (!s) return;
    // How many places use each node: a shared one shows "shared ×N". Counted again only
    // when the document changed.
    if (this.usesOf !== s.doc || this.usesStale) {
      this.uses = s.kind === "byml" ? useCounts(s.doc) : new Map();
      this.usesOf = s.doc;
      this.usesStale = false;
    }
    // While comparing, the ghosts of removed entries show among the rows.
    this.rows = this.compare.rows(flatten(s.kind, s.doc, s.expanded));
    if (this.rows.truncated) this.ed.status(`Shared entries expanded at many places: showing the first ${this.rows.length} rows`, "error");
    this.renderWarnings();
    this.rowIndex = new Map();
    this.rows.forEach((r, i) => this.rowIndex.set(r.node, i));
    if (s.selected && !this.rowIndex.has(s.selected)) s.selected = null;
    this.renderBar();
    this.renderRows();
    this.updateInfo();
  }

  // The document changed (an edit, undo or redo). The search runs again once the edits
  // pause: over a big file it takes a tenth of a second, and a burst of edits (undo held
  // down, a value typed and entered) should not pay it each time.
  changed(cmd) {
    this.usesStale = true;
    this.compare.documentChanged(cmd);
    this.refresh();
    if (this.session && this.session.query) {
      clearTimeout(this.searchTimer);
      this.searchPending = true;
      this.searchTimer = setTimeout(() => this.runSearch({ keep: true }), SEARCH_DELAY);
    }
    this.yaml.documentChanged();
  }

  queueRender() {
    if (this.renderQueued) return;
    this.renderQueued = true;
    requestAnimationFrame(() => {
      this.renderQueued = false;
      this.renderRows();
    });
  }

  // Puts in the DOM the rows in sight, and a few around them.
  renderRows() {
    const s = this.session;
    clear(this.rowsEl);
    if (!s) return;
    this.spacer.style.height = `${this.rows.length * ROW_HEIGHT}px`;
    const top = this.scroller.scrollTop, height = this.scroller.clientHeight || 0;
    const first = Math.max(0, Math.floor(top / ROW_HEIGHT) - OVERSCAN);
    const last = Math.min(this.rows.length, Math.ceil((top + height) / ROW_HEIGHT) + OVERSCAN);
    this.rowsEl.style.transform = `translateY(${first * ROW_HEIGHT}px)`;
    const current = this.hitIndex >= 0 ? this.hits[this.hitIndex].node : null;
    for (let i = first; i < last; i++) this.rowsEl.append(this.rowEl(this.rows[i], i, current));
    this.rendered = last - first;
    if (this.onRendered) this.onRendered();
  }

  rowEl(r, i, current) {
    const kind = this.kind, n = r.node, s = this.session;
    const container = isContainer(kind, n);
    const open = container && !r.ghost && s.expanded.has(n);
    const cls = "div.tree-row" + (n === s.selected ? ".selected" : "") + (this.hitSet.has(n) ? ".hit" : "") + (n === current ? ".current" : "") + this.compare.rowClass(r);
    const el = h(cls, { dataset: { index: i, path: r.path }, role: "treeitem", "aria-level": r.depth + 1, "aria-expanded": container ? String(open) : null },
      h("span.tree-toggle", {}, container && !r.ghost ? (childCount(kind, n) ? (open ? "▾" : "▸") : "·") : ""),
      h("span.tree-key", {}, String(r.key)),
      h("span.tree-value", {}, valueText(kind, n)),
      this.badges(n),
      h("span.tree-type", {}, typeOf(kind, n)));
    el.style.paddingLeft = `${6 + r.depth * 16}px`;
    return el;
  }

  // A row's marks: a node used from several places ("shared ×N", an edit of it changes
  // them all), a hash whose keys the file keeps unsorted or repeated.
  badges(n) {
    const out = h("span.tree-badges", {});
    const k = this.uses ? this.uses.get(n) || 0 : 0;
    if (k > 1) out.append(h("span.tree-shared", { title: `This entry is one node used in ${k} places: an edit of it changes every place` }, `shared ×${k}`));
    if (n.unsorted) out.append(h("span.tree-warn", { title: "The file keeps this hash's keys unsorted or repeated (the game binary-searches keys and may miss some); saving keeps them as they are" }, "⚠ unsorted keys"));
    return out;
  }

  // The file's warnings (the server's, from opening it) above the rows, each going to its
  // entry when clicked.
  renderWarnings() {
    const s = this.session;
    const list = (s && s.warnings) || [];
    clear(this.warningsEl);
    this.warningsEl.hidden = !list.length;
    for (const w of list) {
      const where = w.path || "the top level";
      this.warningsEl.append(h("div.tree-warning", { title: `Go to ${where}`, onclick: () => this.goTo(w.path || "/") },
        `⚠ ${where}${w.offset >= 0 ? ` (at 0x${w.offset.toString(16)})` : ""}: ${w.message}`));
    }
  }

  // After an edit of node (or of a container's entries): says when the edit reaches more
  // than one place, or touches a hash that keeps the file's unsorted keys.
  noteEdit(node, what) {
    const s = this.session;
    if (!s || s.kind !== "byml" || !node) return;
    const notes = [];
    const k = placeCount(s.doc, node);
    if (k > 1) notes.push(`changes ${k} places (a shared node)`);
    if (node.unsorted) notes.push("this hash keeps the file's unsorted or repeated keys: saving keeps them as they are");
    if (notes.length) this.ed.status(`${what}: ${notes.join("; ")}`);
  }

  rowAt(e) {
    const el = e.target.closest(".tree-row");
    return el ? this.rows[Number(el.dataset.index)] : null;
  }

  click(e) {
    const r = this.rowAt(e);
    if (!r) return;
    if (e.target.classList.contains("tree-toggle") && !r.ghost) this.toggle(r.node);
    this.select(r.node);
    this.scroller.focus({ preventScroll: true });
  }

  dblclick(e) {
    const r = this.rowAt(e);
    if (!r) return;
    if (e.target.classList.contains("tree-toggle") || r.ghost) return; // the click toggled already; a ghost has nothing to open
    if (isContainer(this.kind, r.node)) this.toggle(r.node);
    else this.focusField("value");
  }

  toggle(node, open) {
    const s = this.session;
    if (!isContainer(this.kind, node)) return;
    const now = open ?? !s.expanded.has(node);
    if (now) s.expanded.add(node);
    else s.expanded.delete(node);
    this.refresh();
  }

  // Expands every container inside the selected entry, or in the whole file.
  expandAll() {
    const s = this.session;
    if (!s) return;
    const start = s.selected && isContainer(this.kind, s.selected) ? s.selected : rootOf(this.kind, s.doc);
    if (!start) return;
    const stack = [start];
    let n = 0;
    while (stack.length) {
      const c = stack.pop();
      // A shared container is expanded (and counted) once.
      if (!isContainer(this.kind, c) || s.expanded.has(c) && c !== start) continue;
      s.expanded.add(c);
      n++;
      const v = this.kind === "byml" ? c.value.map((x) => (c.type === "array" ? x : x[1])) : [...(c.objects || []), ...(c.lists || []), ...(c.params || [])];
      stack.push(...v);
    }
    this.refresh();
    this.ed.status(`Expanded ${count(n, "entry", "entries")}: ${count(this.rows.length, "row")}`);
  }

  collapseAll() {
    if (!this.session) return;
    this.session.expanded.clear();
    this.refresh();
  }

  select(node, { reveal = false } = {}) {
    const s = this.session;
    if (!s) return;
    s.selected = node;
    this.renderBar();
    if (reveal && node) this.scrollTo(node);
    // The rows drawn stay (a double click needs the element its first click hit): only the
    // mark moves, unless the row is not drawn yet.
    let drawn = !node;
    for (const el of this.rowsEl.children) {
      const on = this.rows[Number(el.dataset.index)].node === node;
      el.classList.toggle("selected", on);
      drawn ||= on;
    }
    if (!drawn) this.renderRows();
    this.updateInfo();
  }

  scrollTo(node) {
    const i = this.rowIndex.get(node);
    if (i === undefined) return;
    const top = this.scroller.scrollTop, height = this.scroller.clientHeight;
    const y = i * ROW_HEIGHT;
    if (y < top || y + ROW_HEIGHT > top + height) this.scroller.scrollTop = Math.max(0, y - Math.floor(height / 2));
    this.session.scrollTop = this.scroller.scrollTop;
  }

  // Expands the containers above an entry (chain: from the first level down, the entry
  // last) and selects it.
  reveal(chain) {
    const s = this.session;
    for (const c of chain.slice(0, -1)) s.expanded.add(c);
    this.refresh();
    this.select(chain[chain.length - 1], { reveal: true });
  }

  goTo(path) {
    const chain = this.session && resolvePath(this.kind, this.session.doc, path.trim());
    if (!chain || !chain.length) {
      this.ed.ui.toast(`No entry at ${path.trim() || "an empty path"}.`, "error");
      return false;
    }
    this.reveal(chain);
    this.scroller.focus({ preventScroll: true });
    return true;
  }

  selectedRow() {
    const s = this.session;
    const i = s && s.selected ? this.rowIndex.get(s.selected) : undefined;
    return i === undefined ? null : this.rows[i];
  }

  // The selected row when it can be edited: not a ghost of a removed entry.
  editableRow() {
    const r = this.selectedRow();
    if (r && r.ghost) {
      this.ed.status("A removed entry shows as it was in the other version: Take back puts it back", "error");
      return null;
    }
    return r;
  }

  // ---- keyboard

  key(e) {
    if (!this.session || this.el.hidden || this.ed.root.querySelector(".overlay")) return;
    const t = e.target;
    const typing = !!t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT" || t.isContentEditable);
    const idle = !typing && (t === this.scroller || t === document.body || t === document.documentElement || !t);
    const b = TREE_KEYS.find((k) => k.combos.some((c) => matches(c, e)));
    if (b && (b.when === "any" || (idle && !this.yamlShown()))) {
      b.run(this, e);
      e.preventDefault();
      e.stopPropagation();
      return;
    }
    // The graph's keys stay away from the graph hidden behind the tree.
    if (!typing && GRAPH_KEYS.some((k) => k.combos.some((c) => matches({ ...c, alt: false }, e)))) e.stopPropagation();
  }

  yamlShown() {
    return !this.yamlHost.hidden;
  }

  pageRows() {
    return Math.max(1, Math.floor(this.scroller.clientHeight / ROW_HEIGHT) - 1);
  }

  step(delta) {
    if (!this.rows.length) return;
    const cur = this.session.selected ? this.rowIndex.get(this.session.selected) ?? -1 : -1;
    let i = cur < 0 ? (delta > 0 ? 0 : this.rows.length - 1) : cur + delta;
    i = Math.max(0, Math.min(this.rows.length - 1, Number.isFinite(i) ? i : delta > 0 ? Infinity : 0));
    this.select(this.rows[i].node, { reveal: true });
  }

  right() {
    const r = this.selectedRow();
    if (!r || r.ghost || !isContainer(this.kind, r.node)) return this.step(1);
    if (!this.session.expanded.has(r.node)) return this.toggle(r.node, true);
    if (childCount(this.kind, r.node)) this.step(1);
  }

  left() {
    const r = this.selectedRow();
    if (!r) return;
    if (isContainer(this.kind, r.node) && this.session.expanded.has(r.node)) return this.toggle(r.node, false);
    if (r.depth > 0) this.select(r.parent, { reveal: true });
  }

  focusField(which) {
    const el = { search: this.searchInput, path: this.pathInput, key: this.keyInput, value: this.valueInput }[which];
    if (!el || el.disabled) return;
    if (this.yamlShown() && which !== "search") this.yaml.toggle(false);
    el.focus();
    el.select();
  }

  // ---- the edit bar

  renderBar() {
    const s = this.session;
    if (!s) return;
    const r = this.selectedRow();
    const kind = s.kind;
    this.pathInput.value = r ? r.path : "";
    this.keyInput.value = r ? String(r.key) : "";
    this.keyInput.disabled = !r || !renamable(kind, r.parent);
    this.typeEl.textContent = r ? typeOf(kind, r.node) : "";
    const text = r ? editText(kind, r.node) : null;
    this.valueInput.value = text ?? "";
    this.valueInput.disabled = text === null;
    this.valueInput.placeholder = r && text === null ? valueText(kind, r.node) : "value";
    this.valueInput.classList.remove("invalid");
    this.keyInput.classList.remove("invalid");
    this.removeButton.disabled = !r;
    this.upButton.disabled = this.downButton.disabled = !r || !reorderable(kind, r.parent);
    // A ghost row is the other version's entry: nothing of it can be edited here.
    if (r && r.ghost) this.keyInput.disabled = this.valueInput.disabled = this.removeButton.disabled = this.upButton.disabled = this.downButton.disabled = true;
    const target = r ? (isContainer(kind, r.node) ? r.node : r.parent) : rootOf(kind, s.doc);
    const types = target ? addableTypes(kind, target) : [];
    const was = this.addType.value || s.addType;
    clear(this.addType);
    for (const t of types) this.addType.append(h("option", { value: t }, t));
    if (types.includes(was)) this.addType.value = was;
    this.addButton.disabled = !types.length || !!(r && r.ghost);
  }

  // Shows an edit's refusal on the field that caused it.
  refused(res, field) {
    if (res.ok) return true;
    if (field) field.classList.add("invalid");
    this.ed.ui.toast(res.reason, "error");
    this.ed.status(res.reason, "error");
    return false;
  }

  applyValue() {
    const r = this.editableRow();
    if (!r || this.valueInput.disabled) return;
    if (this.refused(this.session.edits.setValue(r, this.valueInput.value), this.valueInput)) {
      this.valueInput.classList.remove("invalid");
      this.noteEdit(r.node, `Set ${r.key}`);
    }
  }

  applyKey() {
    const r = this.editableRow();
    if (!r || this.keyInput.disabled || this.keyInput.value === String(r.key)) return;
    const res = this.session.edits.rename(r, this.keyInput.value);
    if (this.refused(res, this.keyInput)) {
      this.select(r.node, { reveal: true });
      this.noteEdit(r.parent, `Renamed ${r.key}`);
    }
  }

  add() {
    const s = this.session;
    if (!s || this.addButton.disabled) return;
    s.addType = this.addType.value;
    const r = this.editableRow();
    if (!r && s.selected && this.selectedRow()) return;
    const res = s.edits.add(r, this.addType.value);
    if (!this.refused(res)) return;
    // The new entry shows: its container opens.
    const parent = res.parent;
    if (parent && parent !== rootOf(s.kind, s.doc)) s.expanded.add(parent);
    this.refresh();
    this.select(res.node, { reveal: true });
    this.scroller.focus({ preventScroll: true });
    this.noteEdit(parent, `Added ${this.addType.value}`);
  }

  remove() {
    const r = this.editableRow();
    if (!r) return;
    // The next sibling (or the one before, or the container) is selected after.
    const i = this.rowIndex.get(r.node);
    const sibling = (dir) => {
      for (let k = i + dir; k >= 0 && k < this.rows.length; k += dir) {
        if (this.rows[k].depth < r.depth) return null;
        if (this.rows[k].depth === r.depth) return this.rows[k].node;
      }
      return null;
    };
    const next = sibling(1) || sibling(-1);
    this.session.edits.remove(r);
    this.select(next || (r.depth > 0 ? r.parent : null), { reveal: true });
    this.noteEdit(r.parent, `Removed ${r.key}`);
  }

  move(delta) {
    const r = this.editableRow();
    if (!r) return;
    if (this.refused(this.session.edits.move(r, delta))) this.select(r.node, { reveal: true });
  }

  // ---- search

  runSearch(opts = {}) {
    const s = this.session;
    if (!s) return;
    clearTimeout(this.searchTimer);
    this.searchPending = false;
    this.searchRuns++;
    s.query = this.searchInput.value;
    const t0 = performance.now();
    this.hits = search(s.kind, s.doc, s.query);
    this.hitSet = new Set(this.hits.map((x) => x.node));
    if (!opts.keep || this.hitIndex >= this.hits.length) this.hitIndex = -1;
    this.searchMs = performance.now() - t0;
    this.renderCount();
    this.renderRows();
  }

  renderCount() {
    const s = this.session;
    const more = this.hits.length >= 5000 ? "+" : "";
    this.searchCount.textContent = s && s.query.trim() ? `${this.hitIndex >= 0 ? this.hitIndex + 1 : 0} / ${this.hits.length}${more}` : "";
  }

  searchStep(dir) {
    if (!this.session) return;
    if (this.session.query !== this.searchInput.value) this.runSearch();
    else if (this.searchPending) this.runSearch({ keep: true }); // the hits of the document as it is
    if (!this.hits.length) {
      if (this.session.query.trim()) this.ed.status(`Nothing matches "${this.session.query.trim()}"`);
      return;
    }
    this.hitIndex = (this.hitIndex + dir + this.hits.length) % this.hits.length;
    if (this.hitIndex < 0) this.hitIndex += this.hits.length;
    const hit = this.hits[this.hitIndex];
    this.reveal([...hit.chain, hit.node]);
    this.renderCount();
  }

  updateInfo() {
    const s = this.session;
    if (!s) return;
    const r = this.selectedRow();
    this.ed.ui.statusInfo.textContent = `${count(this.rows.length, "row")} shown` + (r ? ` · ${r.path}` : "");
  }
}
