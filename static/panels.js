// The DOM around the canvas: toolbar, side panels (commands, search, blackboard, expressions,
// problems), inspector, legend, status bar and overlays (help, add-node palette, toasts).

import { h, clear } from "./dom.js";
import { errorText } from "./exprcode.js";
import { SHORTCUTS, KEYS, keyLabel } from "./input.js";
import * as store from "./store.js";
import { wheelMode, setWheelMode } from "./wheel.js";
import { count, zoomText } from "./counts.js";
import {
  VALUE_TYPES, TYPE_COLOR, TYPE_LABEL, LINK_COLOR, BLACKBOARD_TYPES, nodeClass, formatFloat,
} from "./model.js";
import { parseF32, parseInt32 } from "./edits.js";
import { TREE_SHORTCUTS, TREE_KEYS } from "./tree.js";

// The editor members this module uses: its context (context.js).
export const EDITOR_NEEDS = ["command", "dirty", "doc", "edits", "emit", "exportImage", "expressionView", "fitAll", "focusCommand", "focusNode", "history", "name", "nodeById", "on", "openFile", "openPalette", "problems", "redo", "reopen", "runSearch", "save", "search", "searchStep", "selection", "selectionList", "share", "tidy", "trees", "undo", "view", "warnings"];

// The editor's keys that are not the graph's and that the tree does not take (TREE_SHORTCUTS
// lists undo and redo): they work in the tree view too.
const treeKeys = new Set([...TREE_KEYS.flatMap((b) => b.keys), "Ctrl+Z", "Ctrl+Shift+Z", "Ctrl+Y"]);
const GENERAL_SHORTCUTS = KEYS.filter((b) => b.when !== "doc" && !b.keys.some((k) => treeKeys.has(k))).map((b) => [keyLabel(b), b.help]);

const TABS = [["commands", "Commands"], ["search", "Search"], ["blackboard", "Blackboard"], ["expressions", "Expressions"], ["problems", "Problems"]];

export class Panels {
  // inspector(el) makes the inspector in its element (the editor gives it its own context).
  constructor(ed, root, { inspector }) {
    this.ed = ed;
    this.root = root;
    clear(root);
    root.classList.add("editor");
    // AINB files, and BYML and AAMP files for the tree view (treefiles.js; any other file
    // whose bytes say BYML or AAMP opens there too).
    this.fileInput = h("input", { type: "file", accept: ".ainb,.zs,.ainb.zs,.byml,.bgyml,.sbyml,.mubin,.smubin,.bxml,.baiprog,.bphysics,.bas,.baslist,.bmodellist,.bbonectrl,.bdemo", hidden: true, id: "file-input",
      onchange: () => {
        const f = this.fileInput.files[0];
        if (f) ed.openFile(f);
        this.fileInput.value = "";
      } });
    this.buildToolbar();
    this.canvas = h("canvas", { tabindex: "0", "aria-label": "Node graph" });
    this.canvas.id = "graph";
    this.tipEl = h("div.tip", { hidden: true });
    this.toasts = h("div.toasts", { role: "status", "aria-live": "polite" });
    this.welcome = h("div.welcome", {});
    this.legend = this.buildLegend();
    this.stage = h("div.stage", {}, this.canvas, this.legend, this.welcome, this.tipEl, this.toasts);
    this.tabBodies = {};
    this.tabButtons = {};
    const tabBar = h("nav.tabs", { role: "tablist" });
    for (const [id, label] of TABS) {
      const b = h("button.tab", { role: "tab", dataset: { tab: id }, onclick: () => this.showTab(id) }, label);
      this.tabButtons[id] = b;
      tabBar.append(b);
      this.tabBodies[id] = h("div.tab-body", { dataset: { tab: id }, hidden: true });
    }
    this.left = h("aside.left", {}, tabBar, Object.values(this.tabBodies));
    this.inspectorEl = h("div.inspector-body", {});
    this.right = h("aside.right", {}, h("div.panel-title", {}, "Inspector"), this.inspectorEl);
    this.statusEl = h("span.status-text", {});
    this.statusInfo = h("span.status-info", {});
    root.append(
      this.toolbar,
      h("main.workspace", {}, this.left, this.stage, this.right),
      h("footer.statusbar", {}, this.statusEl, this.statusInfo),
      this.fileInput,
    );
    this.inspector = inspector(this.inspectorEl);
    this.buildCommands();
    this.buildSearch();
    this.buildBlackboard();
    this.buildExpressions();
    this.buildProblems();
    this.showTab("commands");
    this.renderWelcome();
    this.setupDrop();
    ed.on("status", (text, kind) => {
      this.statusEl.textContent = text;
      this.statusEl.classList.toggle("error", kind === "error");
    });
    ed.on("dirty", () => this.updateTitle());
    ed.on("document", () => {
      this.updateTitle();
      this.welcome.hidden = !!ed.doc;
    });
    let infoQueued = false;
    const info = () => {
      if (infoQueued) return;
      infoQueued = true;
      requestAnimationFrame(() => {
        infoQueued = false;
        this.updateInfo();
      });
    };
    ed.on("view", info);
    ed.on("selection", info);
    ed.on("change", info);
  }

  buildToolbar() {
    const ed = this.ed;
    const btn = (label, title, onclick, extra = {}) => h("button.tool", { title, onclick, ...extra }, label);
    this.undoBtn = btn("↶ Undo", "Undo (Ctrl+Z)", () => ed.undo(), { disabled: true, dataset: { action: "undo" } });
    this.redoBtn = btn("↷ Redo", "Redo (Ctrl+Shift+Z)", () => ed.redo(), { disabled: true, dataset: { action: "redo" } });
    this.titleEl = h("span.doc-title", {}, "No file");
    this.dirtyEl = h("span.dirty", { title: "Unsaved edits", hidden: true }, "●");
    this.recentMenu = h("div.menu", { hidden: true });
    const recentBtn = btn("Recent ▾", "Recently opened files", (e) => {
      e.stopPropagation();
      this.toggleRecent();
    }, { dataset: { action: "recent" } });
    document.addEventListener("click", () => (this.recentMenu.hidden = true));
    // Shift+click tidies everything, like Shift+L. Disabled while a layout request runs.
    this.tidyBtn = btn("Tidy", "Tidy: lay out unpinned nodes; Shift: all (L / Shift+L)", (e) => ed.doc && ed.tidy({ reset: e.shiftKey }), { dataset: { action: "tidy" } });
    ed.on("tidy", (busy) => (this.tidyBtn.disabled = busy));
    const wheel = h("select.tool", { title: "What the mouse wheel does on the canvas (remembered)", dataset: { action: "wheel" }, onchange: (e) => setWheelMode(e.target.value) },
      h("option", { value: "zoom" }, "Wheel: zoom"), h("option", { value: "pan" }, "Wheel: pan"));
    wheel.value = wheelMode();
    this.toolbar = h("header.toolbar", {},
      h("span.brand", {}, h("b", {}, "AINB"), " editor"),
      btn("Open…", "Open an .ainb or .ainb.zs file, or a BYML or AAMP file (.byml, .bgyml, .byml.zs, .bxml, .baiprog, …) in the tree view (Ctrl+O)", () => this.pickFile(), { dataset: { action: "open" } }),
      h("span.menu-wrap", {}, recentBtn, this.recentMenu),
      btn("Save", "Build the .ainb and download it (Ctrl+S)", () => ed.save(), { dataset: { action: "save" } }),
      btn("Share", "Create a link to this document and view", () => ed.share(), { dataset: { action: "share" } }),
      this.buildPictureMenu(btn),
      h("span.sep", {}),
      this.undoBtn, this.redoBtn,
      h("span.sep", {}),
      btn("+ Node", "Add a node (A)", () => this.openPalette(), { dataset: { action: "add" } }),
      btn("Fit", "Fit everything in view (F)", () => ed.doc && ed.fitAll(), { dataset: { action: "fit" } }),
      this.tidyBtn,
      wheel,
      h("span.grow", {}),
      h("span.doc", {}, this.dirtyEl, this.titleEl),
      btn("?", "Keyboard shortcuts (?)", () => this.toggleHelp(), { dataset: { action: "help" } }),
    );
  }

  // Export image: the view or the whole graph, as PNG or SVG (picture.js).
  buildPictureMenu(btn) {
    const ed = this.ed;
    const menu = h("div.menu", { hidden: true });
    const item = (label, title, opts) => h("button.menu-item", { title, dataset: { picture: `${opts.whole ? "whole" : "view"}-${opts.format}` },
      onclick: () => {
        menu.hidden = true;
        ed.exportImage(opts);
      } }, label);
    menu.append(
      item("View as PNG", "The canvas as it shows now, at twice its pixels", { whole: false, format: "png" }),
      item("View as SVG", "The canvas as it shows now; titles stay text", { whole: false, format: "svg" }),
      item("Whole graph as PNG", "Every node, as large as a picture can be", { whole: true, format: "png" }),
      item("Whole graph as SVG", "Every node at full size; titles stay text", { whole: true, format: "svg" }),
    );
    document.addEventListener("click", () => (menu.hidden = true));
    const open = btn("Image ▾", "Export image: save the view or the whole graph as PNG or SVG", (e) => {
      e.stopPropagation();
      if (!ed.doc) return;
      menu.hidden = !menu.hidden;
    }, { dataset: { action: "picture" } });
    return h("span.menu-wrap", {}, open, menu);
  }

  pickFile() {
    this.fileInput.click();
  }

  toggleRecent() {
    const m = this.recentMenu;
    if (!m.hidden) return (m.hidden = true);
    clear(m);
    const items = store.recent();
    if (!items.length) m.append(h("div.menu-empty", {}, "No recent files"));
    for (const r of items) {
      m.append(h("button.menu-item", { onclick: () => {
        m.hidden = true;
        this.ed.reopen(r);
      } }, h("span", {}, r.name), h("span.muted", {}, ago(r.time))));
    }
    m.hidden = false;
  }

  // The title, dirty mark and undo buttons follow the file shown: the graph's, or the tree's
  // while a BYML or AAMP file shows.
  updateTitle() {
    const ed = this.ed;
    const tree = ed.trees && ed.trees.active;
    const history = tree ? tree.history : ed.history;
    const dirty = tree ? history.dirty() : ed.dirty();
    const name = tree ? tree.name : ed.doc ? ed.name : "";
    this.titleEl.textContent = name || "No file";
    this.titleEl.title = name;
    this.dirtyEl.hidden = !dirty;
    document.title = (dirty ? "● " : "") + (name ? name + " – " : "") + "AINB editor";
    this.undoBtn.disabled = !history.done.length;
    this.redoBtn.disabled = !history.undone.length;
    this.undoBtn.title = history.done.length ? `Undo ${history.done.at(-1).label} (Ctrl+Z)` : "Nothing to undo";
    this.redoBtn.title = history.undone.length ? `Redo ${history.undone.at(-1).label} (Ctrl+Shift+Z)` : "Nothing to redo";
  }

  updateInfo() {
    const ed = this.ed;
    if (ed.trees && ed.trees.active) return; // the tree view says its own
    if (!ed.doc) return (this.statusInfo.textContent = "");
    const n = ed.doc.nodes.length;
    this.statusInfo.textContent = `${count(n, "node")} · ${ed.selection.size ? ed.selection.size + " selected · " : ""}${zoomText(ed.view.zoom)}`;
  }

  buildLegend() {
    const rows = VALUE_TYPES.map((t) => legendRow(TYPE_COLOR[t], TYPE_LABEL[t], "dot"));
    rows.push(legendRow(TYPE_COLOR.u32, "u32", "dot"));
    rows.push(legendRow(LINK_COLOR.child, "child", "line"));
    rows.push(legendRow(LINK_COLOR.jump, "jump", "dash"));
    rows.push(legendRow(LINK_COLOR.query, "query", "dot-line"));
    rows.push(legendRow(LINK_COLOR.blackboard, "$ blackboard parameter", "text"));
    rows.push(legendRow(LINK_COLOR.expression, "ƒ expression", "text"));
    const body = h("div.legend-body", {}, rows);
    // Collapsed or open, as the user left it last time.
    let collapsed = store.getPref(store.PREF.legend) === "collapsed";
    const toggle = h("button.legend-toggle", { title: "Show or hide the legend", dataset: { action: "legend" }, "aria-expanded": String(!collapsed), onclick: () => {
      collapsed = el.classList.toggle("collapsed");
      toggle.setAttribute("aria-expanded", String(!collapsed));
      toggle.textContent = collapsed ? "Legend ▸" : "Legend ▾";
      store.setPref(store.PREF.legend, collapsed ? "collapsed" : "open"); // refused: this page only
    } }, collapsed ? "Legend ▸" : "Legend ▾");
    const el = h("div.legend" + (collapsed ? ".collapsed" : ""), {}, toggle, body);
    return el;
  }

  renderWelcome() {
    const w = clear(this.welcome);
    const items = store.recent();
    w.append(h("div.welcome-card", {},
      h("h1", {}, "AINB editor"),
      h("p", {}, "Drop an ", h("code", {}, ".ainb"), " or ", h("code", {}, ".ainb.zs"), " file here, or"),
      h("button.primary", { onclick: () => this.pickFile() }, "Open a file…"),
      items.length ? h("div.recent", {}, h("h3", {}, "Recent"), items.map((r) => h("button.menu-item", { onclick: () => this.ed.reopen(r) },
        h("span", {}, r.name), h("span.muted", {}, `${r.nodes == null ? "? nodes" : count(r.nodes, "node")} · ${ago(r.time)}`)))) : null,
      h("p.muted", {}, "Press ? for keyboard shortcuts."),
    ));
  }

  setupDrop() {
    const root = this.root;
    let depth = 0;
    root.addEventListener("dragenter", (e) => {
      if (![...(e.dataTransfer?.types || [])].includes("Files")) return;
      depth++;
      root.classList.add("dropping");
    });
    root.addEventListener("dragleave", () => {
      if (--depth <= 0) {
        depth = 0;
        root.classList.remove("dropping");
      }
    });
    root.addEventListener("dragover", (e) => e.preventDefault());
    root.addEventListener("drop", (e) => {
      e.preventDefault();
      depth = 0;
      root.classList.remove("dropping");
      const f = e.dataTransfer && e.dataTransfer.files[0];
      if (f) this.ed.openFile(f);
    });
  }

  showTab(id) {
    for (const [t] of TABS) {
      this.tabBodies[t].hidden = t !== id;
      this.tabButtons[t].classList.toggle("active", t === id);
      this.tabButtons[t].setAttribute("aria-selected", String(t === id));
    }
    this.activeTab = id;
    // A hidden textarea has no height to measure; it is fitted when shown.
    if (id === "expressions") for (const ta of this.tabBodies.expressions.querySelectorAll("textarea.code")) fitHeight(ta);
  }

  // ---- commands

  buildCommands() {
    const ed = this.ed;
    const body = this.tabBodies.commands;
    const render = () => {
      clear(body);
      if (!ed.doc) return body.append(h("p.hint", {}, "No file open."));
      const cmds = ed.doc.commands || [];
      const listEl = h("ul.list", {});
      cmds.forEach((c, k) => {
        const name = h("input.text.cmd-name", { type: "text", value: c.name, dataset: { key: `cmd.${k}` }, title: "Rename",
          onchange: () => ed.edits.renameCommand(k, name.value) });
        listEl.append(h("li.item" + (k === ed.command ? ".active" : ""), { dataset: { command: k } },
          h("button.item-main", { onclick: () => ed.focusCommand(k), title: "Show this command's tree" },
            h("span.item-title", {}, c.name || `command ${k}`),
            h("span.muted", {}, `root #${c.root}` + (c.secondary >= 0 ? `, #${c.secondary}` : ""))),
          h("div.item-tools", {}, name,
            h("button.small", { title: "Make the selected node this command's root", disabled: ed.selection.size !== 1,
              onclick: () => ed.edits.setCommandRoot(k, ed.selectionList()[0]) }, "Set root"),
            h("button.icon", { title: "Remove this command", onclick: () => ed.edits.removeCommand(k) }, "✕"))));
      });
      body.append(listEl);
      const nameIn = h("input.text", { type: "text", placeholder: "new command name" });
      body.append(h("div.add-row", {}, nameIn, h("button", { onclick: () => {
        const name = nameIn.value.trim();
        if (!name) return this.toast("Name the command first.", "error");
        const root = ed.selection.size === 1 ? ed.selectionList()[0] : ed.doc.nodes.length ? ed.doc.nodes[0].id : -1;
        if (ed.edits.addCommand(name, root) < 0) this.toast("A command needs a root node.", "error");
      } }, "Add command")));
      body.append(h("p.hint", {}, "A new command starts at the selected node. Click a command to show its tree."));
    };
    ed.on("document", render);
    ed.on("change", render);
    ed.on("command", render);
    ed.on("selection", () => {
      for (const b of body.querySelectorAll("button.small")) b.disabled = ed.selection.size !== 1;
    });
    render();
  }

  // ---- search

  buildSearch() {
    const ed = this.ed;
    const body = this.tabBodies.search;
    this.searchInput = h("input.text.search-input", { type: "search", placeholder: "Names, types, parameters, values…", dataset: { key: "search" } });
    const count = h("span.muted.search-count", {});
    const results = h("ul.list.results", {});
    let timer = 0;
    this.searchInput.addEventListener("input", () => {
      clearTimeout(timer);
      timer = setTimeout(() => ed.runSearch(this.searchInput.value), 120);
    });
    this.searchInput.addEventListener("keydown", (e) => {
      if (e.key === "Enter") {
        e.preventDefault();
        clearTimeout(timer);
        if (ed.search.query !== this.searchInput.value) ed.runSearch(this.searchInput.value);
        ed.searchStep(e.shiftKey ? -1 : 1);
      }
    });
    body.append(
      h("div.search-row", {}, this.searchInput),
      h("div.search-row", {}, h("button", { onclick: () => ed.searchStep(-1), title: "Previous (Shift+Enter)" }, "↑ Prev"),
        h("button", { onclick: () => ed.searchStep(1), title: "Next (Enter)" }, "↓ Next"), count),
      results,
    );
    ed.on("search", () => {
      const s = ed.search;
      count.textContent = s.query ? `${s.index >= 0 ? s.index + 1 : 0} / ${s.hits.length}` : "";
      clear(results);
      for (const id of s.hits.slice(0, 300)) {
        const n = ed.nodeById(id);
        if (!n) continue;
        results.append(h("li.item" + (id === s.current ? ".active" : ""), {},
          h("button.item-main", { onclick: () => {
            s.index = s.hits.indexOf(id);
            s.current = id;
            ed.focusNode(id);
            ed.emit("search");
          } }, h("span.item-title", {}, nodeClass(n)), h("span.muted", {}, "#" + id))));
      }
      if (s.hits.length > 300) results.append(h("li.hint", {}, `…and ${s.hits.length - 300} more`));
    });
    ed.on("document", () => {
      this.searchInput.value = "";
      ed.emit("search");
    });
  }

  focusSearch() {
    this.showTab("search");
    this.searchInput.focus();
    this.searchInput.select();
  }

  // ---- blackboard

  // One block per parameter, grouped by type: its name, default value and file reference,
  // each applied when the field is left. Parameters are keyed by their index in the
  // document's one list (bb.3, bb.3.value, bb.3.file). u32 parameters exist only from 0x408
  // on, so older files are not offered the type.
  buildBlackboard() {
    const ed = this.ed;
    const body = this.tabBodies.blackboard;
    const render = () => {
      // Re-rendering after an edit must not throw the user out of the field they tabbed to.
      const active = document.activeElement;
      const focusKey = active && body.contains(active) ? active.dataset.key : null;
      clear(body);
      if (!ed.doc) return body.append(h("p.hint", {}, "No file open."));
      const params = ed.doc.blackboard || [];
      for (const t of BLACKBOARD_TYPES) {
        const ps = params.map((p, k) => [p, k]).filter(([p]) => p.type === t);
        if (!ps.length) continue;
        body.append(h("h3.group", {}, TYPE_LABEL[t]));
        for (const [p, k] of ps) body.append(this.blackboardParam(k, p));
      }
      if (!params.length) body.append(h("p.hint", {}, "The blackboard is empty."));
      const types = BLACKBOARD_TYPES.filter((t) => t !== "u32" || ed.doc.version >= 0x408);
      const typeSel = h("select", { dataset: { key: "bb.add.type" } }, types.map((t) => h("option", { value: t }, TYPE_LABEL[t])));
      const nameIn = h("input.text", { type: "text", placeholder: "name", dataset: { key: "bb.add.name" } });
      const add = () => {
        const n = nameIn.value.trim();
        if (!n) return this.toast("Name the parameter first.", "error");
        if (params.some((p) => p.type === typeSel.value && p.name === n)) return this.toast(`There already is a ${typeSel.value} parameter ${n}.`, "error");
        ed.edits.addBlackboard(typeSel.value, n);
      };
      nameIn.addEventListener("keydown", (e) => e.key === "Enter" && add());
      body.append(h("div.add-row", {}, typeSel, nameIn, h("button", { dataset: { action: "bb-add" }, onclick: add }, "Add")));
      if (focusKey) body.querySelector(`[data-key="${focusKey}"]`)?.focus();
    };
    this.renderBlackboard = render;
    ed.on("document", render);
    ed.on("change", render);
    render();
  }

  blackboardParam(k, p) {
    const ed = this.ed;
    const key = `bb.${k}`;
    const name = h("input.text", { type: "text", value: p.name, title: "Name", dataset: { key },
      onchange: () => ed.edits.renameBlackboard(k, name.value) });
    const file = h("input.text", { type: "text", value: p.file || "", placeholder: "file reference (none)", title: "Parameter file reference",
      dataset: { key: key + ".file" }, onchange: () => ed.edits.setBlackboardField(k, "file", file.value.trim()) });
    return h("div.bb-param", { dataset: { bb: key }, title: p.notes || "" },
      h("div.bb-row", {}, name,
        h("button.icon", { title: "Remove; values reading it fall back to their own value", dataset: { action: "bb-remove" }, onclick: () => ed.edits.removeBlackboard(k) }, "✕")),
      h("div.bb-row.bb-values", {}, this.blackboardDefault(k, p, key), file));
  }

  // The control for a parameter's default value; pointers have none.
  blackboardDefault(k, p, key) {
    const ed = this.ed;
    const v = p.value;
    const bad = (what) => {
      this.toast(`${p.name} default: ${what}`, "error");
      this.renderBlackboard(); // puts the stored value back into the field
    };
    const num = (value, sub, parse, set) => {
      const el = h("input.text.num", { type: "text", value, title: "Default value", dataset: { key: key + ".value" + sub },
        onchange: () => {
          const x = parse(el.value);
          if (x === null) return bad(`"${el.value}" is not a number`);
          set(x);
        } });
      return el;
    };
    switch (p.type) {
      case "string": {
        const el = h("input.text", { type: "text", value: v ?? "", title: "Default value", dataset: { key: key + ".value" },
          onchange: () => ed.edits.setBlackboardValue(k, el.value) });
        return el;
      }
      case "int":
      case "u32":
        return num(String(v ?? 0), "", parseInt32, (x) => ed.edits.setBlackboardValue(k, x));
      case "float": return num(formatFloat(v), "", parseF32, (x) => ed.edits.setBlackboardValue(k, x));
      case "bool": return h("label.check", {}, h("input", { type: "checkbox", checked: !!v, dataset: { key: key + ".value" },
        onchange: (e) => ed.edits.setBlackboardValue(k, e.target.checked) }), "true");
      case "vec3f": {
        const vec = Array.isArray(v) ? v : [0, 0, 0];
        return h("span.vec", {}, [0, 1, 2].map((c) => num(formatFloat(vec[c]), "." + c, parseF32, (x) => ed.edits.setBlackboardValue(k, x, c))));
      }
    }
    return h("span.muted", {}, "no default");
  }

  // ---- expressions

  buildExpressions() {
    const ed = this.ed;
    const body = this.tabBodies.expressions;
    const render = () => {
      clear(body);
      const fns = ed.doc && ed.doc.expressions && ed.doc.expressions.functions;
      if (!fns || !fns.length) return body.append(h("p.hint", {}, ed.doc ? "The file has no expressions." : "No file open."));
      body.append(h("p.hint", {}, "Each expression shows as readable code or as its instructions (the toggle). Edit either and leave the field to apply; the file is built from it when you save."));
      fns.forEach((fn, k) => {
        const err = ed.problems.find((p) => p.expression === k);
        const view = ed.expressionView(k, `fn.${k}`, err ? { line: err.line || 0, column: err.column || 0, message: err.message } : null);
        body.append(h("div.fn" + (err ? ".has-error" : ""), { dataset: { expression: k } },
          h("h3.group", {}, `Expression ${k}`, err ? h("span.error-text", {}, " " + errorText({ line: err.line, column: err.column, message: err.message })) : null), view));
      });
      // Long lines wrap (editor.css), so each text is as tall as its wrapped lines: every
      // line shows whole, none is cut off at the panel's edge.
      if (!body.hidden) for (const ta of body.querySelectorAll("textarea.code")) fitHeight(ta);
    };
    ed.on("document", render);
    ed.on("problems", render);
    ed.on("expression-form", render);
    ed.on("change", () => {
      if (!document.activeElement || !body.contains(document.activeElement)) render();
    });
    render();
  }

  showExpression(k) {
    this.showTab("expressions");
    const ta = this.tabBodies.expressions.querySelector(`[data-key="fn.${k}"]`);
    if (ta) {
      // The expression's heading carries the error message, so it comes into view too.
      (ta.closest(".fn") || ta).scrollIntoView({ block: "start" });
      ta.focus({ preventScroll: true });
    }
  }

  // Puts the caret on a line of an expression's text.
  showExpressionLine(k, line) {
    this.showExpression(k);
    const ta = this.tabBodies.expressions.querySelector(`[data-key="fn.${k}"]`);
    if (!ta || !line) return;
    const lines = ta.value.split("\n");
    let at = 0;
    for (let l = 0; l < line - 1 && l < lines.length; l++) at += lines[l].length + 1;
    ta.setSelectionRange(at, at + (lines[line - 1] || "").length);
    // The textarea is as tall as its text (fitHeight): the panel scrolls the line into view.
    const lh = parseFloat(getComputedStyle(ta).lineHeight) || 17;
    const body = this.tabBodies.expressions;
    const top = ta.getBoundingClientRect().top - body.getBoundingClientRect().top + body.scrollTop;
    body.scrollTop = Math.max(0, top + (line - 3) * lh);
  }

  // ---- problems

  buildProblems() {
    const ed = this.ed;
    const body = this.tabBodies.problems;
    ed.on("problems", () => {
      clear(body);
      // Errors (what keeps the file from being built) first, then warnings (what the file
      // says that leads nowhere; the game loads such files and Save writes them as they are).
      const ps = ed.problems, ws = ed.warnings || [];
      const all = ps.length + ws.length;
      this.tabButtons.problems.textContent = all ? `Problems (${all})` : "Problems";
      this.tabButtons.problems.classList.toggle("bad", ps.length > 0);
      this.tabButtons.problems.classList.toggle("warn", !ps.length && ws.length > 0);
      if (!all) return body.append(h("p.hint", {}, "No problems. Saving lists here what keeps the file from being built."));
      const ul = h("ul.list.problems", {});
      const item = (p, warning) => ul.append(h("li.item" + (warning ? ".warning" : ".error"), {}, h("button.item-main.problem", { onclick: () => {
        if (p.node >= 0) ed.focusNode(p.node);
        else if (p.expression !== undefined) this.showExpressionLine(p.expression, p.line);
      } }, h("span.item-title", {}, h("span.severity", {}, warning ? "warning" : "error"), " ", p.message),
      h("span.muted", {}, (p.node >= 0 ? `#${p.node} · ` : "") + (p.path || "")))));
      ps.forEach((p) => item(p, false));
      ws.forEach((p) => item(p, true));
      body.append(ul);
      if (ps.length) this.showTab("problems");
    });
    ed.emit("problems");
  }

  // ---- overlays

  toast(text, kind = "") {
    const t = h("div.toast" + (kind ? "." + kind : ""), {}, text);
    this.toasts.append(t);
    setTimeout(() => t.remove(), kind === "error" ? 6000 : 3500);
    return t;
  }

  // Copies a link to the clipboard and shows it (with embed, the snippet that frames it);
  // answers whether the clipboard took it. Without permission or focus it does not, and the
  // toast is where the link is copied by hand.
  async offerLink(link, embed = "") {
    let copied = false;
    try {
      await navigator.clipboard.writeText(link);
      copied = true;
    } catch {
      // the toast shows the link
    }
    this.shareToast(link, copied, embed);
    return copied;
  }

  // The link, and the snippet that frames the share on a web page (a wiki, a forum), each
  // with a button that copies it.
  shareToast(link, copied, embed = "") {
    const field = (cls, value, what) => {
      const input = h(`input.text.${cls}`, { type: "text", value, readonly: true, onclick: () => input.select() });
      const copy = h("button.small", { dataset: { action: `copy-${cls}` }, onclick: async () => {
        try {
          await navigator.clipboard.writeText(value);
          copy.textContent = "Copied";
        } catch {
          input.select();
          copy.textContent = "Press Ctrl+C";
        }
      } }, "Copy");
      return h("div.share-row", { title: what }, input, copy);
    };
    const t = h("div.toast.share", {}, h("div", {}, copied ? "Link copied to the clipboard:" : "Share link:"),
      field("share-link", link, "The link to this document and view"));
    if (embed) t.append(h("div", {}, "Embed it in a web page:"), field("share-embed", embed, "An <iframe> that shows this share read-only, pan- and zoomable"));
    this.toasts.append(t);
    // Long enough to copy the snippet too; a click inside keeps it until it is closed.
    let timer = setTimeout(() => t.remove(), 20000);
    t.addEventListener("pointerdown", () => {
      clearTimeout(timer);
      timer = setTimeout(() => t.remove(), 60000);
    });
  }

  tip(text, x, y) {
    const el = this.tipEl;
    if (!text) return (el.hidden = true);
    const r = this.stage.getBoundingClientRect();
    el.textContent = text;
    el.hidden = false;
    el.style.left = `${x - r.left + 14}px`;
    el.style.top = `${y - r.top + 14}px`;
  }

  closeOverlays() {
    let closed = false;
    for (const el of this.root.querySelectorAll(".overlay")) {
      el.remove();
      closed = true;
    }
    if (!this.recentMenu.hidden) {
      this.recentMenu.hidden = true;
      closed = true;
    }
    if (closed) this.canvas.focus();
    return closed;
  }

  toggleHelp() {
    const open = this.root.querySelector(".overlay.help");
    if (open) return open.remove();
    const el = h("div.overlay.help", { onclick: (e) => e.target === el && el.remove() },
      h("div.dialog", { role: "dialog", "aria-label": "Keyboard shortcuts" },
        h("div.dialog-head", {}, h("h2", {}, "Keyboard and mouse"), h("button.icon", { onclick: () => el.remove() }, "✕")),
        // While a BYML or AAMP file shows, the tree's keys and the editor's own.
        h("table.shortcuts", {}, (this.ed.trees && this.ed.trees.active ? [...TREE_SHORTCUTS, ...GENERAL_SHORTCUTS] : SHORTCUTS)
          .map(([k, v]) => h("tr", {}, h("td", {}, h("kbd", {}, k)), h("td", {}, v))))));
    this.root.append(el);
  }

  // The add-node palette (palette.js): every class the node catalogue knows. opts: link,
  // when a dragged link asks for a node that fits it.
  openPalette(wx, wy, opts = {}) {
    return this.ed.openPalette({ ...opts, at: wx === undefined ? undefined : [wx, wy] });
  }
}

// Makes a textarea as tall as its text, so nothing in it scrolls out of sight.
function fitHeight(ta) {
  ta.style.height = "auto";
  ta.style.height = `${ta.scrollHeight + 2}px`;
}

function legendRow(color, label, kind) {
  const sw = h("span.legend-swatch." + kind, {});
  sw.style.setProperty("--c", color);
  return h("div.legend-row", {}, sw, label);
}

function ago(t) {
  const s = Math.round((Date.now() - t) / 1000);
  if (s < 60) return "just now";
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86400) return `${Math.round(s / 3600)} h ago`;
  return new Date(t).toLocaleDateString();
}

