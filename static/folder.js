// A folder of AINB files: opened with the File System Access API where the browser has it,
// or a directory/multi-file picker otherwise. A module-caller node opens the module it calls
// from the folder, with a breadcrumb back; each file visited is a session of the workspace
// (session.js), keeping its working copy and undo history while the user moves between
// them. Search and "find usages" of a node class, blackboard parameter or module run across
// the folder's files (see usages.js).

import { h, clear } from "./dom.js";
import * as api from "./api.js";
import * as shape from "./shape.js";
import { FOLDER } from "./session.js";
import { usagesOf, findUsages, resolveModule, KINDS, KIND_LABEL } from "./usages.js";

// The editor members this module uses: its context (context.js).
export const EDITOR_NEEDS = ["doc", "enter", "focusNode", "name", "nodeById", "on", "openFile", "packs", "selection", "selectionList", "session", "status", "ui", "workspace"];

const AINB_NAME = /\.ainb(\.zs)?$/i;

export class Folder {
  constructor(ed) {
    this.ed = ed;
    this.name = "";
    this.files = []; // {file (path in the folder), blob (File)}
    this.index = null; // [{file, filename, usages}] once read
    this.stack = []; // sessions of the files left for a module, oldest first
    this.loading = false;
    this.listed = ""; // what the file list shows (active and edited files), to draw it only when that changes
    // Without the File System Access API: a directory picker, or a plain multi-file picker
    // (for browsers with neither, and for choosing some files of a folder).
    const picked = (input) => () => {
      const fs = [...input.files];
      input.value = "";
      // A directory picker names the folder first in each path; a multi-file picker does not.
      const top = fs.length && fs[0].webkitRelativePath ? fs[0].webkitRelativePath.split("/")[0] : "";
      this.setFiles(top, fs.map((f) => ({ file: f.webkitRelativePath || f.name, blob: f })));
    };
    this.input = h("input", { type: "file", multiple: true, webkitdirectory: true, hidden: true, id: "folder-input" });
    this.input.addEventListener("change", picked(this.input));
    this.filesInput = h("input", { type: "file", multiple: true, accept: ".ainb,.zs", hidden: true, id: "folder-files-input" });
    this.filesInput.addEventListener("change", picked(this.filesInput));
    ed.ui.root.append(this.input, this.filesInput);
    const grow = ed.ui.toolbar.querySelector(".grow");
    ed.ui.toolbar.insertBefore(h("button.tool", { title: "Open a folder of .ainb files: modules open from it, usages are found across it",
      dataset: { action: "open-folder" }, onclick: () => this.pick() }, "Open folder…"), grow);
    this.crumbs = h("nav.breadcrumb", { hidden: true, "aria-label": "Modules opened" });
    ed.ui.stage.append(this.crumbs);
    this.buildPanel();
    ed.on("document", () => {
      // A file opened some other way leaves the module trail (the files keep their sessions).
      if (!this.loading) this.stack = [];
      this.renderCrumbs();
      this.renderModule();
      this.renderPanel();
    });
    ed.on("selection", () => this.renderModule());
    ed.on("dirty", () => this.renderPanel());
  }

  // The path of the file on the canvas when it is one of the folder's, else "".
  get current() {
    const s = this.ed.session;
    return s && s.group === FOLDER ? s.path : "";
  }

  // A session left the workspace: it leaves the module trail too.
  forget(s) {
    const k = this.stack.indexOf(s);
    if (k < 0) return;
    this.stack.splice(k, 1);
    this.renderCrumbs();
  }

  async pick() {
    if (!window.showDirectoryPicker) return this.input.click();
    const dir = await chooseFolder((name) => AINB_NAME.test(name));
    if (!dir) return;
    const files = [];
    for (const f of dir.files) files.push({ file: f.path, blob: await f.entry.getFile() });
    this.setFiles(dir.name, files);
  }

  // The paths of the folder's (or pack's) files with unsaved edits.
  edited() {
    return this.ed.workspace.edited((s) => s.group === FOLDER);
  }

  // Replaces the folder: the files of the one before (and of the pack open, whose files the
  // folder held) go, unsaved edits asked about first, unless discard says the user already
  // agreed. A file of the new folder whose bytes are those an unsaved session came from
  // keeps that session, and the user is told. Returns false when the user keeps the old
  // folder.
  async setFiles(name, files, { discard = false } = {}) {
    const ed = this.ed, ws = ed.workspace;
    files = files.filter((f) => AINB_NAME.test(f.file)).sort((a, b) => a.file.localeCompare(b.file));
    const kept = [];
    if (!discard) {
      for (const s of ws.list((x) => x.group === FOLDER && x.graph && x.dirty())) {
        const f = files.find((x) => x.file === s.path);
        if (f && s.sameFile(await shape.sha256(await f.blob.arrayBuffer()))) kept.push(s);
      }
    }
    if (!ws.release((s) => s.group === FOLDER && !kept.includes(s), { ask: !discard })) return false;
    if (!discard) ed.packs.close();
    this.stack = [];
    this.renderCrumbs();
    this.name = name;
    this.files = files;
    this.generation = (this.generation || 0) + 1;
    this.index = null;
    this.renderPanel();
    const n = `${this.files.length} AINB file${this.files.length === 1 ? "" : "s"}`;
    const still = kept.length ? `; unsaved edits kept in ${kept.map((s) => s.path).join(", ")}` : "";
    ed.status((name ? `Opened folder ${name}: ${n}` : `Opened ${n} as a folder`) + still);
    if (kept.length) ed.ui.toast(`${kept.map((s) => s.path).join(", ")}: the same file${kept.length === 1 ? " as the one" : "s as those"} edited, so the unsaved edits are kept.`);
    return true;
  }

  // Reads every file of the folder once, for usages and for modules named inside files.
  async readIndex() {
    if (this.index) return this.index;
    const index = [], failed = [];
    let k = 0;
    for (const f of this.files) {
      this.ed.status(`Reading the folder… ${++k} of ${this.files.length}`);
      // Each file is parsed by the server once; only what usages need is kept.
      try {
        const doc = await api.parseFile(f.blob.name, await f.blob.arrayBuffer());
        index.push({ file: f.file, filename: doc.filename, usages: usagesOf(doc) });
      } catch (err) {
        failed.push(`${f.file}: ${err.message}`);
      }
    }
    this.index = index;
    this.failed = failed;
    return index;
  }

  // ---- modules

  // Opens the module a module-caller node calls, from the folder.
  async openModule(module) {
    const ed = this.ed;
    if (!this.files.length) {
      ed.ui.toast(`Open the folder that holds ${module} first (Open folder…).`, "error");
      return false;
    }
    let f = resolveModule(this.files.map((x) => ({ file: x.file })), module);
    if (!f) f = resolveModule(await this.readIndex(), module);
    if (!f) {
      ed.status("");
      ed.ui.toast(`${module} is not in ${this.name ? "the folder " + this.name : "the chosen files"}.`, "error");
      return false;
    }
    return this.visit(f.file, { push: true });
  }

  // Shows a file of the folder: its session if it was visited, else the file read. push
  // puts the file being left on the breadcrumb.
  async visit(path, { push = false, focus = -1 } = {}) {
    const ed = this.ed;
    // A file on the breadcrumb is gone back to.
    const k = this.stack.findIndex((s) => s.path === path && s.group === FOLDER);
    if (k >= 0) {
      if (!this.back(k)) return false;
      if (focus >= 0) ed.focusNode(focus);
      return true;
    }
    const kept = ed.workspace.get(FOLDER, path);
    const entry = this.files.find((x) => x.file === path);
    if (!kept && !entry) return false;
    const leaving = push && ed.session && ed.session !== kept ? ed.session : null;
    this.loading = true;
    try {
      const ok = kept ? ed.enter(kept, { push }) : await ed.openFile(entry.blob, { group: FOLDER, path, push });
      if (!ok) return false;
      if (leaving && !this.stack.includes(leaving)) this.stack.push(leaving);
    } finally {
      this.loading = false;
    }
    if (kept) ed.status(`Back in ${kept.name}`);
    this.renderCrumbs();
    if (focus >= 0) ed.focusNode(focus);
    return true;
  }

  // Goes back to the kth file of the breadcrumb; the files after it keep their sessions.
  back(k) {
    const s = this.stack[k];
    if (!s) return false;
    this.loading = true;
    try {
      if (!this.ed.enter(s, { push: true })) return false;
    } finally {
      this.loading = false;
    }
    this.stack.splice(k);
    this.ed.status(`Back in ${s.name}`);
    this.renderCrumbs();
    return true;
  }

  renderCrumbs() {
    const c = clear(this.crumbs);
    this.crumbs.hidden = !this.stack.length;
    this.stack.forEach((s, k) => c.append(h("button.crumb", { dataset: { crumb: k }, title: `Back to ${s.name}`, onclick: () => this.back(k) }, s.name), h("span.crumb-sep", {}, "›")));
    c.append(h("span.crumb.current", {}, this.ed.name));
  }

  // ---- the panel

  buildPanel() {
    this.kind = h("select", { dataset: { key: "usages.kind" } }, h("option", { value: "" }, "anything"),
      KINDS.map((k) => h("option", { value: k }, KIND_LABEL[k])));
    this.query = h("input.text", { type: "search", placeholder: "Class, parameter or module", dataset: { key: "usages.query" } });
    this.query.addEventListener("keydown", (e) => {
      if (e.key === "Enter") {
        e.preventDefault();
        this.find(this.kind.value, this.query.value);
      }
    });
    this.moduleEl = h("div.folder-module", {});
    this.summary = h("p.hint", {}, "No folder open.");
    this.results = h("ul.list.usages", {});
    this.fileList = h("ul.list.folder-files", {});
    this.panel = h("section.folder", { "aria-label": "Folder" },
      h("div.panel-title", {}, "Folder"), this.summary,
      h("div.search-row", {}, h("button.small", { onclick: () => this.pick() }, "Open folder…"),
        h("button.small", { title: "Choose several .ainb files to work on as one folder", onclick: () => this.filesInput.click() }, "Choose files…")),
      this.moduleEl,
      h("div.search-row", {}, this.kind, this.query, h("button", { dataset: { action: "find-usages" }, onclick: () => this.find(this.kind.value, this.query.value) }, "Find")),
      this.results, this.fileList);
    this.ed.ui.left.append(this.panel);
  }

  // The file list marks the file shown and those with unsaved edits (●), as the Pack panel
  // does; it is drawn again only when that changes, not at every edit.
  renderPanel() {
    const ws = this.ed.workspace;
    const shown = ws.active && ws.active.group === FOLDER ? ws.active.path : "";
    const edited = new Set(this.edited());
    const listed = [this.generation, shown, ...edited].join("\n");
    if (listed === this.listed) return;
    this.listed = listed;
    const n = `${this.files.length} AINB file${this.files.length === 1 ? "" : "s"}`;
    // A pack without AINB files is open as a folder of none.
    this.summary.textContent = this.files.length || this.name ? (this.name ? `${this.name}: ${n}` : n) : "No folder open.";
    clear(this.fileList);
    for (const f of this.files) {
      this.fileList.append(h("li.item" + (f.file === shown ? ".active" : ""), {}, h("button.item-main", { dataset: { file: f.file }, onclick: () => this.visit(f.file) },
        h("span.item-title", {}, (edited.has(f.file) ? "● " : "") + f.file))));
    }
  }

  // The selected node, when it calls a module, offers to open it and to find its callers.
  renderModule() {
    const ed = this.ed;
    clear(this.moduleEl);
    const sel = ed.doc && ed.selection.size === 1 ? ed.nodeById(ed.selectionList()[0]) : null;
    if (!sel) return;
    if (sel.moduleCaller) {
      this.moduleEl.append(h("button", { dataset: { action: "open-module" }, title: "Open the module this node calls, from the folder", onclick: () => this.openModule(sel.name) }, `Open module ${sel.name}`));
    }
    const cls = sel.type === "UserDefined" ? sel.name : sel.type;
    this.moduleEl.append(h("button", { dataset: { action: "usages-of-class" }, onclick: () => {
      this.kind.value = "class";
      this.query.value = cls;
      this.find("class", cls);
    } }, `Find usages of ${cls}`));
  }

  async find(kind, query) {
    const ed = this.ed;
    if (!this.files.length) return ed.ui.toast("Open a folder first (Open folder…).", "error");
    if (!query.trim()) return ed.ui.toast("Type a name to find.", "error");
    const index = await this.readIndex();
    const hits = findUsages(index, kind, query);
    clear(this.results);
    for (const hit of hits.slice(0, 500)) {
      this.results.append(h("li.item", {}, h("button.item-main", { dataset: { file: hit.file, node: hit.node }, onclick: () => this.visit(hit.file, { push: !!this.current || this.stack.length > 0, focus: hit.node }) },
        h("span.item-title", {}, `${hit.file} #${hit.node}`), h("span.muted", {}, `${KIND_LABEL[hit.kind]} ${hit.name}`))));
    }
    const files = new Set(hits.map((x) => x.file)).size;
    const what = kind ? `${KIND_LABEL[kind]} ` : "";
    ed.status(`${hits.length} usage${hits.length === 1 ? "" : "s"} of ${what}"${query.trim()}" in ${files} of ${index.length} file${index.length === 1 ? "" : "s"}` +
      (this.failed.length ? `; ${this.failed.length} file${this.failed.length === 1 ? "" : "s"} could not be read` : ""));
    return hits;
  }
}

// Asks for a folder (the File System Access API) and lists its files whose names keep
// takes, subfolders included: {name, files: [{path ("Folder/sub/file"), entry}]}, or null
// when the user cancelled.
export async function chooseFolder(keep = () => true) {
  let dir;
  try {
    dir = await window.showDirectoryPicker();
  } catch {
    return null; // cancelled
  }
  const files = [];
  const walk = async (d, prefix) => {
    for await (const entry of d.values()) {
      if (entry.kind === "directory") await walk(entry, prefix + entry.name + "/");
      else if (keep(entry.name)) files.push({ path: prefix + entry.name, entry });
    }
  };
  await walk(dir, dir.name + "/");
  return { name: dir.name, files };
}
