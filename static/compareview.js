// Compare with… and Merge… around the canvas: choosing the other version (a file, the member
// of the same path in a pack or folder, the copy the open pack holds, a share named by the
// link's #compare=ID), the Changes panel (one row per change, stepping with N and P, taking a
// change back), keeping the diff fresh while the working copy is edited, sharing a diff by
// link, and the Merge panel (base and other version, the conflicts settled one by one).
// The model of it (marks, rows, taking back, settling) is compare.js and merge.js.

import { h, clear } from "./dom.js";
import * as api from "./api.js";
import * as store from "./store.js";
import { NODE_WIDTH, nodeHeight } from "./model.js";
import { PACK_NAME } from "./packs.js";
import { LOD_FULL } from "./render.js";
import { isReadOnly } from "./history.js";
import { marks, describe, rowText, changeNode, takeBack, stepNode, DiffRefresher } from "./compare.js";
import { settle, replaceDocument, conflictText } from "./merge.js";

// The editor members this module uses: its context (context.js).
export const EDITOR_NEEDS = ["doc", "edits", "focusNode", "name", "nodeById", "on", "packs", "requestRender", "select", "session", "share", "status", "ui", "view"];

// Edits made while comparing ask for a new diff after this pause, so typing asks once.
export const REFRESH_DELAY = 300;

// The most rows the Changes panel lists.
const MAX_ROWS = 2000;

const base64Bytes = (s) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
const baseName = (path) => path.slice(path.lastIndexOf("/") + 1);

export class CompareView {
  constructor(ed) {
    this.ed = ed;
    this.other = null; // the other version's document while comparing
    this.otherName = "";
    this.changes = [];
    this.marks = null; // compare.marks of the changes, for the renderer
    this.current = -1;
    this.version = 0; // counts changes of what the renderer draws for compare mode
    this.refresher = new DiffRefresher({
      ask: () => api.diff(this.otherText, ed.doc),
      apply: (reply) => this.showDiff(reply),
      fail: (err) => ed.ui.toast(`Could not compare: ${err.message}`, "error"),
      delay: REFRESH_DELAY,
    });
    this.shareId = ""; // the share of the other version, once the diff was shared or opened by link
    this.timings = {};
    this.merging = null; // {base, theirs, baseName, theirsName, conflicts, choices}
    const input = (id, onfile, extra = {}) => {
      const el = h("input", { type: "file", hidden: true, id, ...extra });
      el.addEventListener("change", () => {
        const files = [...el.files];
        el.value = "";
        if (files.length) onfile(files);
      });
      ed.ui.root.append(el);
      return el;
    };
    const accept = ".ainb,.zs,.pack,.sarc,.szs,.bfarc,.blarc,.sblarc,.sbactorpack,.sbeventpack";
    this.fileInput = input("compare-input", (fs) => this.compareWith(() => this.readVersion(fs[0])), { accept });
    this.folderInput = input("compare-folder", (fs) => this.compareWith(() => this.readVersion(fs)), { webkitdirectory: true, multiple: true });
    this.baseInput = input("merge-base-input", (fs) => this.chooseMerge("base", () => this.readVersion(fs[0])), { accept });
    this.theirsInput = input("merge-theirs-input", (fs) => this.chooseMerge("theirs", () => this.readVersion(fs[0])), { accept });
    this.buildToolbar();
    this.buildPanels();
    ed.on("change", () => {
      this.scheduleRefresh();
      // Conflicts listed are of the working copy before the edit: they are asked again.
      const m = this.merging;
      if (m && m.conflicts) {
        m.conflicts = null;
        m.choices = [];
        this.renderMerge();
        this.mergeSummary.textContent = "The file changed since the merge: merge again.";
      }
    });
    ed.on("frame", () => {
      if (this.firstFrameFrom === undefined) return;
      this.timings.firstFrame = performance.now() - this.firstFrameFrom;
      this.firstFrameFrom = undefined;
    });
    // Another file shown: the diff was of the one before.
    ed.on("document", () => {
      if (this.other && this.shownDoc !== ed.doc) this.leave();
      if (this.merging && this.merging.doc !== ed.doc) this.closeMerge();
    });
  }

  get active() {
    return !!this.other;
  }

  buildToolbar() {
    const ed = this.ed;
    const menu = h("div.menu", { hidden: true });
    const item = (label, title, action, run) => h("button.menu-item", { title, dataset: { action }, onclick: () => {
      menu.hidden = true;
      run();
    } }, label);
    menu.append(
      item("A file or pack…", "An .ainb file, or a pack whose member of this file's path (or name) is compared", "compare-file", () => this.fileInput.click()),
      item("A folder…", "A folder whose file of this file's path (or name) is compared", "compare-folder", () => this.folderInput.click()),
      item("As saved in the open pack", "This pack member as the open pack holds it (opened or last saved)", "compare-pack", () => this.compareWith(() => this.packCopy())),
      item("Merge…", "Merge another version of this file into it, three ways against a base (the game's original, say)", "merge", () => this.openMerge()),
    );
    document.addEventListener("click", () => (menu.hidden = true));
    const open = h("button.tool", { title: "Compare this file with another version of it (colours what changed, lists the changes; N / P step through them), or merge one into it", dataset: { action: "compare" },
      onclick: (e) => {
        e.stopPropagation();
        if (ed.doc) menu.hidden = !menu.hidden;
      } }, "⇄");
    // One narrow button: the toolbar has no room to spare.
    ed.ui.toolbar.insertBefore(h("span.menu-wrap", {}, open, menu), ed.ui.toolbar.querySelector(".grow"));
  }

  buildPanels() {
    const btn = (label, action, onclick, title = "") => h("button.small", { dataset: { action }, title, onclick }, label);
    this.summary = h("p.hint", {}, "");
    this.rows = h("ul.list.compare-rows", {});
    this.panel = h("section.compare", { "aria-label": "Changes", hidden: true },
      h("div.panel-title", {}, "Changes"), this.summary,
      h("div.search-row", {},
        btn("◀ Prev", "compare-prev", () => this.step(-1), "Previous change (P)"),
        btn("Next ▶", "compare-next", () => this.step(1), "Next change (N)"),
        btn("Share diff", "compare-share", () => this.shareDiff(), "A link that opens this file compared with the other version"),
        btn("Leave", "compare-leave", () => this.leave(), "Back to the normal view")),
      this.rows);
    this.mergeSummary = h("p.hint", {}, "");
    this.baseLabel = h("span.muted", {}, "none");
    this.theirsLabel = h("span.muted", {}, "none");
    this.conflictRows = h("ul.list.merge-rows", {});
    this.runButton = btn("Merge", "merge-run", () => this.runMerge(), "Merge the other version into this file against the base");
    this.applyButton = btn("Apply choices", "merge-apply", () => this.applyChoices(), "Merge with every conflict settled as chosen");
    this.mergePanel = h("section.merge", { "aria-label": "Merge", hidden: true },
      h("div.panel-title", {}, "Merge"),
      h("div.search-row", {}, btn("Base…", "merge-base", () => this.baseInput.click(), "The version both come from (a file, or a pack holding this file)"),
        btn("Pack's copy", "merge-base-pack", () => this.chooseMerge("base", () => this.packCopy()), "This pack member as the open pack holds it (the game's original, when the pack is)"), this.baseLabel),
      h("div.search-row", {}, btn("Other version…", "merge-theirs", () => this.theirsInput.click(), "The version to merge into this file"), this.theirsLabel),
      h("div.search-row", {}, this.runButton, this.applyButton, btn("Close", "merge-close", () => this.closeMerge())),
      this.mergeSummary, this.conflictRows);
    this.ed.ui.left.append(this.panel, this.mergePanel);
  }

  // ---- the other version

  // The document of the other version in what the user chose: an AINB file, a pack (its
  // member of the shown file's path, or else of its name), or a folder's files (likewise).
  async readVersion(chosen) {
    const ed = this.ed, path = ed.session ? ed.session.path : ed.name;
    const zsdic = await store.getDoc(store.DOC.zsdic);
    if (Array.isArray(chosen)) {
      const rel = (f) => (f.webkitRelativePath || f.name).replace(/^[^/]*\//, "");
      const f = chosen.find((x) => rel(x) === path) || pickByName(chosen, (x) => x.name, path, "the folder");
      return { doc: (await api.parseUpload(f.name, new Uint8Array(await f.arrayBuffer()), zsdic)).doc, name: rel(f) };
    }
    const bytes = new Uint8Array(await chosen.arrayBuffer());
    if (!PACK_NAME.test(chosen.name)) return { doc: (await api.parseUpload(chosen.name, bytes, zsdic)).doc, name: chosen.name };
    const reply = await api.openPack(chosen.name, bytes, zsdic);
    const files = reply.files.filter((f) => f.format === "ainb");
    const m = files.find((f) => f.name === path) || pickByName(files, (f) => baseName(f.name), path, chosen.name);
    return { doc: (await api.parseUpload(baseName(m.name), base64Bytes(m.data), zsdic)).doc, name: `${m.name} in ${chosen.name}` };
  }

  // The shown pack member as the open pack holds it.
  async packCopy() {
    const ed = this.ed, pack = ed.packs.pack, s = ed.session;
    const m = pack && s && pack.members.get(s.path);
    if (!m) throw new Error(`${ed.name} is not a member of the open pack`);
    return { doc: (await api.parseUpload(baseName(s.path), m.bytes, await store.getDoc(store.DOC.zsdic))).doc, name: `${s.path} as saved in ${pack.name}` };
  }

  async compareWith(read) {
    const ed = this.ed;
    if (!ed.doc) return false;
    ed.status("Reading the other version…");
    const t0 = performance.now();
    let v;
    try {
      v = await read();
    } catch (err) {
      ed.status("");
      ed.ui.toast(`Could not compare: ${err.message}`, "error");
      return false;
    }
    this.shareId = "";
    const readMs = performance.now() - t0;
    const ok = await this.start(v.doc, v.name);
    this.timings.read = readMs;
    return ok;
  }

  // Compares the working copy with doc (the other version, named name).
  async start(doc, name) {
    const ed = this.ed;
    this.timings = { start: performance.now() };
    this.other = doc;
    // Sent with every diff while comparing: made and encoded once.
    this.otherText = new Blob([JSON.stringify(doc)]);
    this.otherName = name;
    this.shownDoc = ed.doc;
    this.current = -1;
    this.panel.hidden = false;
    const ok = await this.refresh();
    if (ok) {
      const n = this.changes.length;
      ed.status(`Compared with ${name}: ${n} change${n === 1 ? "" : "s"}`);
    }
    return ok;
  }

  // Asks for the diff again (DiffRefresher drops an answer older than the last question).
  refresh() {
    if (!this.other || !this.ed.doc) return Promise.resolve(false);
    this.askedAt = performance.now();
    return this.refresher.run();
  }

  // Shows an answer of the diff: the marks, the rows, the frame.
  showDiff(reply) {
    const ed = this.ed;
    this.timings.diff = performance.now() - this.askedAt;
    this.changes = reply.changes;
    this.renumbered = reply.renumbered || [];
    this.marks = marks(this.changes, this.other);
    if (this.current >= this.changes.length) this.current = this.changes.length - 1;
    this.version++;
    this.renderPanel();
    // The first frame drawn with the colours is timed from start (the "frame" listener).
    if (this.timings.start !== undefined) this.firstFrameFrom = this.timings.start;
    delete this.timings.start;
    ed.requestRender();
    this.refreshes = (this.refreshes || 0) + 1;
  }

  scheduleRefresh() {
    if (!this.other) return;
    // Until the answer comes, the panel says its rows are of the document before the edit.
    this.summary.textContent = `Comparing again after the edit… (${this.changes.length} change${this.changes.length === 1 ? "" : "s"} before it)`;
    this.refresher.schedule();
  }

  leave() {
    if (!this.other) return;
    this.refresher.cancel();
    this.other = null;
    this.otherText = null;
    this.changes = [];
    this.marks = null;
    this.current = -1;
    this.shareId = "";
    this.timings = {};
    this.version++;
    this.panel.hidden = true;
    this.ed.requestRender();
    this.ed.status("Left compare mode");
  }

  renderPanel() {
    clear(this.rows);
    const n = this.changes.length;
    this.summary.textContent = `${n} change${n === 1 ? "" : "s"} from ${this.otherName} to this file.`;
    // Two unrelated files differ everywhere: the panel lists the first MAX_ROWS, N and P
    // step through all.
    this.changes.slice(0, MAX_ROWS).map((c) => describe(c, this.other, this.ed.doc)).forEach((r, k) => {
      const li = h(`li.compare-row.${r.op}`, { dataset: { k }, onclick: () => this.go(k) },
        h("span.compare-text", {}, rowText(r)),
        h("button.small", { dataset: { action: "take-back" }, title: "Set this place back to the other version's value (one edit; Ctrl+Z undoes it)",
          onclick: (e) => {
            e.stopPropagation();
            this.takeBack(k);
          } }, "Take back"));
      if (k === this.current) li.classList.add("current");
      this.rows.append(li);
    });
    if (n > MAX_ROWS) this.rows.append(h("li.hint", {}, `and ${n - MAX_ROWS} more: N and P step through every change`));
  }

  // ---- stepping and taking back

  step(dir) {
    const n = this.changes.length;
    if (!this.other) return false;
    if (!n) return this.ed.status("No changes"), true;
    this.go(this.current < 0 ? (dir > 0 ? 0 : n - 1) : (this.current + dir + n) % n);
    return true;
  }

  // Goes to change k: its node centred and selected; a node only the other file has is
  // centred where its ghost is.
  go(k) {
    const ed = this.ed, c = this.changes[k];
    if (!c) return;
    this.current = k;
    const at = changeNode(c);
    if (at && !at.ghost && ed.nodeById(at.id)) ed.focusNode(at.id);
    else if (at && at.ghost) {
      const g = this.marks.ghosts.find((n) => n.id === at.id);
      if (g) {
        // As focusNode does: zoomed in enough to read it.
        if (ed.view.zoom < LOD_FULL) ed.view.zoom = 1;
        ed.view.centerOn(g.x + NODE_WIDTH / 2, g.y + Math.min(nodeHeight(g), ed.view.height / ed.view.zoom) / 2);
        ed.select([]);
      }
    }
    for (const li of this.rows.children) li.classList.toggle("current", li.dataset.k !== undefined && Number(li.dataset.k) === k);
    const li = this.rows.children[k];
    if (li && li.scrollIntoView) li.scrollIntoView({ block: "nearest" });
    ed.status(`Change ${k + 1} of ${this.changes.length}: ${rowText(describe(c, this.other, ed.doc))}`);
  }

  takeBack(k) {
    const ed = this.ed, c = this.changes[k];
    if (!c) return false;
    if (isReadOnly()) return ed.status("This page is read-only: open the share in the editor to take changes back", "error"), false;
    const res = takeBack(ed.edits, this.other, c, { changes: this.changes, renumbered: this.renumbered });
    if (!res.ok) {
      ed.status(res.reason, "error");
      return false;
    }
    ed.status(`Took back ${c.path.join(" / ")}`);
    return true;
  }

  // ---- sharing

  // Shares the other version on its own, then the working copy with its view: the link is
  // the working copy's share with #compare=ID naming the other's.
  async shareDiff() {
    const ed = this.ed;
    if (!this.other) return null;
    try {
      if (!this.shareId) this.shareId = (await api.createShare(this.other, {}, "ainb")).id;
      const link = await ed.share({ quiet: true });
      if (!link) return null;
      const full = `${link.replace(/#.*$/, "")}#compare=${encodeURIComponent(this.shareId)}`;
      this.lastShare = full;
      const copied = await ed.ui.offerLink(full);
      ed.status(copied ? "Diff link copied" : "Diff link created");
      return full;
    } catch (err) {
      ed.ui.toast(`Could not share the diff: ${err.message}`, "error");
      return null;
    }
  }

  // Follows #compare=ID: the working copy is compared with share ID's document.
  async openFragment(hash) {
    const id = new URLSearchParams((hash || "").replace(/^#/, "")).get("compare");
    if (!id || id === this.shareId) return false;
    try {
      const s = await api.getShare(id);
      if (!s.document || !Array.isArray(s.document.nodes)) throw new Error("it is not an AINB document");
      this.shareId = id;
      return await this.start(s.document, `share ${id}`);
    } catch (err) {
      this.ed.ui.toast(`Could not compare with share ${id}: ${err.message}`, "error");
      return false;
    }
  }

  // ---- merge

  openMerge() {
    if (isReadOnly()) return this.ed.status("This page is read-only: open the share in the editor to merge", "error");
    this.merging = { doc: this.ed.doc, base: null, theirs: null, baseName: "", theirsName: "", conflicts: null, choices: [] };
    this.mergePanel.hidden = false;
    this.renderMerge();
  }

  closeMerge() {
    this.merging = null;
    this.mergePanel.hidden = true;
  }

  // Sets the base or the other version of the merge to what read gives ({doc, name}).
  async chooseMerge(side, read) {
    const m = this.merging;
    if (!m) return;
    try {
      const v = await read();
      m[side] = v.doc;
      m[side + "Name"] = v.name;
      m.conflicts = null;
      m.choices = [];
    } catch (err) {
      this.ed.ui.toast(`Could not read the ${side === "base" ? "base" : "other version"}: ${err.message}`, "error");
    }
    this.renderMerge();
  }

  ask(prefer) {
    const m = this.merging;
    return api.merge(m.base, this.ed.doc, m.theirs, prefer);
  }

  // Merges; without conflicts the result is the working copy's edit at once, else the
  // conflicts are listed to settle.
  async runMerge() {
    const ed = this.ed, m = this.merging;
    if (!m || !m.base || !m.theirs) return ed.status("Choose the base and the other version first", "error"), false;
    let reply;
    try {
      reply = await this.ask("");
    } catch (err) {
      ed.ui.toast(`Could not merge: ${err.message}`, "error");
      return false;
    }
    if (!reply.conflicts.length) return this.finishMerge(reply.document);
    m.conflicts = reply.conflicts;
    m.choices = reply.conflicts.map(() => "");
    this.renderMerge();
    ed.status(`${reply.conflicts.length} conflict${reply.conflicts.length === 1 ? "" : "s"}: choose ours or theirs for each`);
    return true;
  }

  choose(k, side) {
    const m = this.merging;
    if (!m || !m.conflicts || !m.conflicts[k]) return;
    m.choices[k] = side;
    this.renderMerge();
  }

  async applyChoices() {
    const ed = this.ed, m = this.merging;
    if (!m || !m.conflicts) return false;
    let doc;
    try {
      doc = await settle(m.conflicts, m.choices, (p) => this.ask(p), (a, b) => api.diff(a, b));
    } catch (err) {
      ed.ui.toast(`Could not merge: ${err.message}`, "error");
      return false;
    }
    return this.finishMerge(doc);
  }

  finishMerge(doc) {
    const ed = this.ed, m = this.merging;
    const label = `Merge ${m.theirsName}`;
    const n = m.conflicts ? m.conflicts.length : 0;
    replaceDocument(ed.edits, doc, label);
    this.closeMerge();
    ed.status(`Merged ${m.theirsName}` + (n ? ` (${n} conflict${n === 1 ? "" : "s"} settled)` : "") + "; Ctrl+Z undoes it, Save writes it");
    return true;
  }

  renderMerge() {
    const m = this.merging;
    if (!m) return;
    this.baseLabel.textContent = m.baseName || "none";
    this.theirsLabel.textContent = m.theirsName || "none";
    this.runButton.disabled = !m.base || !m.theirs;
    this.applyButton.disabled = !m.conflicts || m.choices.some((c) => !c);
    clear(this.conflictRows);
    this.mergeSummary.textContent = m.conflicts ? `${m.conflicts.length} conflict${m.conflicts.length === 1 ? "" : "s"}; ${m.choices.filter(Boolean).length} settled.` : "";
    (m.conflicts || []).forEach((k, i) => {
      const pick = (side) => h(`button.small${m.choices[i] === side ? ".chosen" : ""}`, { dataset: { choice: side }, onclick: () => this.choose(i, side) }, side);
      // A conflict on a node: its row shows the node.
      const id = stepNode(k.path[0]);
      const go = () => id >= 0 && this.ed.nodeById(id) && this.ed.focusNode(id);
      this.conflictRows.append(h("li.merge-row", { dataset: { k: i } }, h("span", { onclick: go }, conflictText(k, this.ed.doc)), pick("ours"), pick("theirs")));
    });
  }

  // What tests and scripts read of compare mode.
  snapshot() {
    const m = this.merging;
    return {
      active: this.active,
      other: this.otherName,
      rows: this.active ? this.changes.map((c) => rowText(describe(c, this.other, this.ed.doc))) : [],
      current: this.current,
      status: this.marks ? Object.fromEntries(this.marks.status) : {},
      ghosts: this.marks ? this.marks.ghosts.map((n) => ({ id: n.id, x: n.x, y: n.y })) : [],
      refreshes: this.refreshes || 0,
      shareId: this.shareId,
      lastShare: this.lastShare || "",
      timings: { ...this.timings },
      merge: m ? { conflicts: (m.conflicts || []).map((k) => conflictText(k, this.ed.doc)), choices: m.choices.slice() } : null,
    };
  }
}

// The one item of list whose name (nameOf) is the base name of path; an Error when there is
// none or more than one.
function pickByName(list, nameOf, path, where) {
  const want = baseName(path);
  const hits = list.filter((x) => nameOf(x) === want);
  if (hits.length === 1) return hits[0];
  throw new Error(hits.length ? `${where} has ${hits.length} files named ${want}` : `${where} has no file ${path}`);
}
