// Compare with… and Merge… in the tree view (tree.js). Compare shows what changed from
// another version of the file (a file, or the member of the same path in a pack, such as the
// game's original) to the working copy: rows coloured added, changed, or holding changes,
// removed entries as ghost rows where they were, and a Changes list; N and P step through
// the changes, and each can be taken back to the other side's value as one edit. The diff
// (treediff.js) runs on the documents in memory, again after every edit, undo and redo, so
// the colours never show a document that is gone.
//
// Merge merges the working copy (ours) with another version (theirs), edited from a base,
// on the server (/api/tree/merge): what combines is applied, and each conflict waits for
// its own choice, ours or theirs; the merged document replaces the working copy as one edit.
//
// Both keep their state on the file's session (session.compare, session.merge), so moving
// between a pack's files keeps each file's comparison.

import { h, clear } from "./dom.js";
import { count } from "./counts.js";
import { diffTrees, hasher, withGhosts, changeLine } from "./treediff.js";
import { escapeKey, flatten, linkShared, resolvePath, rootOf, typeOf, valueText } from "./treemodel.js";
import * as treeapi from "./treeapi.js";
import * as api from "./api.js";
import * as store from "./store.js";
import { FOLDER } from "./session.js";
import { chooseFolder } from "./folder.js";
import { shareDocument, sharedDocument } from "./treefiles.js";

// The Changes list draws at most this many lines; N and P step through all of them.
const MAX_LINES = 1000;

const PACK_NAME = /\.(pack|sarc|ssarc)(\.zs)?$/i;
const baseName = (path) => path.slice(path.lastIndexOf("/") + 1);
const base64Bytes = (s) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));

// What a session's panel shows: asking what to compare with, a comparison, or a merge.
function setMode(s, mode) {
  Object.assign(s, { choosing: false, compare: null, merge: null }, mode);
}

export class TreeCompare {
  constructor(view) {
    this.view = view;
    this.ed = view.ed;
    const input = (onfile) => {
      const el = h("input", { type: "file", hidden: true });
      el.addEventListener("change", () => {
        const f = el.files && el.files[0];
        el.value = "";
        if (f) onfile(f);
      });
      return el;
    };
    this.compareInput = input((f) => this.compareWith(f));
    this.compareInput.id = "tree-compare-input";
    this.baseInput = input((f) => this.chooseMergeSide("base", f));
    this.baseInput.id = "tree-merge-base-input";
    this.theirsInput = input((f) => this.chooseMergeSide("theirs", f));
    this.theirsInput.id = "tree-merge-theirs-input";
    // A folder without the File System Access API: the browser's folder upload.
    this.folderInput = h("input", { type: "file", multiple: true, webkitdirectory: true, hidden: true, id: "tree-compare-folder-input" });
    this.folderInput.addEventListener("change", () => {
      const files = [...(this.folderInput.files || [])];
      this.folderInput.value = "";
      this.compareWithFolder(files.map((f) => ({ path: f.webkitRelativePath || f.name, file: async () => f })));
    });
    this.compareButton = h("button.small", { dataset: { action: "tree-compare" }, title: "Compare with another version: a BYML or AAMP file, a pack (its member of this file's path), or a folder", onclick: () => this.askWhat() }, "Compare with…");
    this.mergeButton = h("button.small", { dataset: { action: "tree-merge" }, title: "Merge another version of this file into it, three ways, against a base", onclick: () => this.startMerge() }, "Merge…");
    this.el = h("div.tree-diff", { hidden: true, dataset: { key: "tree.diff" } });
    this.inputs = [this.compareInput, this.folderInput, this.baseInput, this.theirsInput];
  }

  get session() {
    return this.view.session;
  }

  get kind() {
    return this.view.session.kind;
  }

  // ---- the other version

  // Reads a chosen file as a version of the session's file: a BYML or AAMP file, or a pack
  // whose member of the same path (or, for a loose file, the same name) is taken. Answers
  // {label, bytes, doc} or null, having said why. whileWaiting runs once the server has the
  // file, while it reads it.
  async version(file, whileWaiting = () => {}) {
    const ed = this.ed, s = this.session;
    const bytes = new Uint8Array(await file.arrayBuffer());
    const zsdic = await store.getDoc(store.DOC.zsdic);
    let reply = null, label = file.name, used = bytes;
    const fail = (err) => {
      ed.ui.toast(`Could not read ${file.name}: ${err.message}`, "error");
      return null;
    };
    // A pack by its name or magic goes to the pack route at once; another file goes to
    // /api/tree, and to the pack route after all when that says it is a SARC archive.
    if (!PACK_NAME.test(file.name) && String.fromCharCode(...bytes.subarray(0, 4)) !== "SARC") {
      try {
        const pending = treeapi.openTree(file.name, bytes, zsdic);
        whileWaiting();
        reply = await pending;
      } catch (err) {
        if (!(err.detail && err.detail.format === "sarc")) return fail(err);
      }
    }
    if (!reply) {
      // A pack: the member that is this file.
      try {
        const pending = api.openPack(file.name, bytes, zsdic);
        whileWaiting();
        const pack = await pending;
        const want = s.group === FOLDER ? s.path : null;
        const m = pack.files.find((f) => f.name === want) || pack.files.find((f) => baseName(f.name) === s.name);
        if (!m) {
          ed.ui.toast(`${file.name} has no ${want || s.name}`, "error");
          return null;
        }
        used = base64Bytes(m.data);
        label = `${file.name}: ${m.name}`;
        reply = await treeapi.openTree(baseName(m.name), used, zsdic);
      } catch (err) {
        return fail(err);
      }
    }
    if (reply.kind !== s.kind) {
      ed.ui.toast(`${label} is ${reply.kind.toUpperCase()}, ${s.name} is ${s.kind.toUpperCase()}: choose a version of the same file`, "error");
      return null;
    }
    return { label, bytes: used, doc: reply.document };
  }

  // ---- Compare with…

  // Asks what to compare with: a file (or pack), or a folder.
  askWhat() {
    const s = this.session;
    if (!s) return;
    setMode(s, { choosing: true });
    this.view.refresh();
  }

  // A folder: the file in it at this file's path (a pack member's path, under any folder),
  // else the one of its name, compressed or not.
  async pickFolder() {
    if (!window.showDirectoryPicker) return this.folderInput.click();
    const dir = await chooseFolder();
    if (dir) return this.compareWithFolder(dir.files.map((f) => ({ path: f.path, file: () => f.entry.getFile() })));
  }

  async compareWithFolder(files) {
    const s = this.session;
    if (!s) return;
    const rel = "/" + (s.group === FOLDER ? s.path : s.name);
    const f = files.find((x) => ("/" + x.path).endsWith(rel)) || files.find((x) => baseName(x.path) === s.name) ||
      files.find((x) => baseName(x.path) === s.name + ".zs");
    if (!f) {
      this.ed.ui.toast(`The folder has no ${rel.slice(1)}`, "error");
      return;
    }
    const file = await f.file();
    return this.compareWith(new File([file], f.path));
  }

  async compareWith(file) {
    const s = this.session;
    if (!s) return;
    const t0 = performance.now();
    this.ed.status(`Comparing with ${file.name}…`);
    // The working copy is hashed while the server reads the other file; kept if no edit,
    // undo or redo came meanwhile.
    const newHash = hasher(s.kind), h = s.history, before = [h.done.length, h.done.at(-1), h.undone.length];
    let hashed = false;
    const other = await this.version(file, () => {
      if (hashed) return;
      hashed = true;
      const root = rootOf(s.kind, s.doc);
      if (root) newHash(root);
    });
    if (!other || this.session !== s) return this.ed.status("");
    const kept = [h.done.length, h.done.at(-1), h.undone.length].every((x, i) => x === before[i]);
    const t1 = this.show(s, other, kept ? newHash : hasher(s.kind));
    const r = s.compare.result;
    requestAnimationFrame(() => setTimeout(() => {
      this.ed.timings.treeDiff = { name: s.name, read: t1 - t0, diff: this.diffMs, rows: this.rowsMs, firstColoured: performance.now() - t0, changes: r.changes.length };
    }, 0));
  }

  // Shows session s compared with other ({label, doc}, and shareId for a share), the
  // working copy hashed by newHash; answers when it began drawing.
  show(s, other, newHash) {
    setMode(s, { compare: { label: other.label, doc: other.doc, shareId: other.shareId || "", hash: hasher(s.kind, { editable: false }), newHash, result: null, stale: true, current: -1 } });
    const t1 = performance.now();
    this.view.refresh();
    this.rowsMs = performance.now() - t1;
    this.ed.status(`Compared with ${other.label}: ${this.summary(s.compare.result)}`);
    return t1;
  }

  // A link that opens this file compared with the other version: the working copy's share
  // with #compare=ID naming a share of the other version (made once per comparison), like
  // the canvas's diff links.
  async shareDiff() {
    const s = this.session, c = s && s.compare;
    if (!c) return null;
    try {
      if (!c.shareId) c.shareId = (await api.createShare(shareDocument(s.kind, s.name, c.doc), {}, "tree")).id;
      const [doc, view] = this.view.files.shareOf(s);
      const res = await api.createShare(doc, view, "tree");
      const link = `${new URL(res.url, location.href).href}#compare=${encodeURIComponent(c.shareId)}`;
      this.lastShare = link;
      const copied = await this.ed.ui.offerLink(link);
      this.ed.status(copied ? "Diff link copied" : "Diff link created");
      return link;
    } catch (err) {
      this.ed.ui.toast(`Could not share the diff: ${err.message}`, "error");
      return null;
    }
  }

  // Follows #compare=ID on a shared tree: the file shown is compared with share ID's tree.
  async openFragment(hash) {
    const id = new URLSearchParams((hash || "").replace(/^#/, "")).get("compare");
    const s = this.session;
    if (!id || !s || (s.compare && s.compare.shareId === id)) return false;
    try {
      const shared = await api.getShare(id);
      const doc = sharedDocument(shared.document);
      if (shared.document.kind !== s.kind) throw new Error(`it is ${shared.document.kind.toUpperCase()}, ${s.name} is ${s.kind.toUpperCase()}`);
      if (this.session !== s) return false;
      this.show(s, { label: `share ${id}`, doc, shareId: id }, hasher(s.kind));
      return true;
    } catch (err) {
      this.ed.ui.toast(`Could not compare with share ${id}: ${err.message}`, "error");
      return false;
    }
  }

  stop() {
    const s = this.session;
    if (!s) return;
    setMode(s, {});
    this.view.refresh();
    this.ed.status("Stopped comparing");
  }

  summary(r) {
    if (!r.changes.length) return "no changes";
    const parts = [];
    for (const op of ["added", "removed", "changed"]) if (r.counts[op]) parts.push(`${r.counts[op]} ${op}`);
    return `${count(r.changes.length, "change")} (${parts.join(", ")})${r.truncated ? ", the first ones only" : ""}`;
  }

  // The document changed by cmd (an edit, its undo or redo): the diff runs again before the
  // rows are drawn, hashing only what cmd touched (and its containers) again.
  documentChanged(cmd) {
    const c = this.session && this.session.compare;
    if (!c) return;
    c.stale = true;
    for (const op of (cmd && cmd.ops) || [null]) {
      if (!op || !c.newHash.forget(op.obj || op.arr)) {
        c.newHash = hasher(this.kind);
        break;
      }
    }
  }

  // The rows to draw: with the ghosts of removed entries while comparing.
  rows(rows) {
    const s = this.session;
    const c = s && s.compare;
    if (c && c.stale) {
      const t0 = performance.now();
      c.result = diffTrees(s.kind, c.doc, s.doc, c.hash, c.newHash);
      this.diffMs = performance.now() - t0;
      c.stale = false;
      if (c.current >= c.result.changes.length) c.current = c.result.changes.length - 1;
    }
    // The panel is drawn again only when what it shows changed: an expansion or a selection
    // refreshes the rows, and the Changes list can be a thousand lines.
    const shows = s ? [s, s.choosing, s.compare, c && c.result, s.merge] : [];
    if (!this.shows || shows.some((x, i) => x !== this.shows[i])) this.render();
    if (!c) return rows;
    const out = withGhosts(s.kind, rows, c.result.ghosts, s.expanded, rootOf(s.kind, s.doc));
    // What is inside an added (or wholly changed) container is added (changed) too: each row
    // takes its container's mark when it has none of its own (containers come first).
    const marks = c.result.marks;
    this.rowMarks = new Map();
    for (const r of out) {
      if (r.ghost) continue;
      let m = marks.get(r.node);
      if (!m) {
        const up = this.rowMarks.get(r.parent);
        if (up === "added" || up === "changed") m = up;
      }
      if (m) this.rowMarks.set(r.node, m);
    }
    return out;
  }

  // The classes a row gets: .ghost.diff-removed, .diff-added, .diff-changed, .diff-inside,
  // and .diff-current for the change N and P are at.
  rowClass(r) {
    const c = this.session && this.session.compare;
    if (!c || !c.result) return "";
    const cur = c.current >= 0 ? c.result.changes[c.current] : null;
    const current = cur && (r.ghost ? r.ghost === cur : cur.op !== "removed" && cur.new === r.node) ? ".diff-current" : "";
    if (r.ghost) return ".ghost.diff-removed" + current;
    const m = this.rowMarks.get(r.node);
    return (m ? `.diff-${m}` : "") + current;
  }

  // Goes to the next (dir 1) or previous (-1) change, or to change i.
  step(dir, i) {
    const c = this.session && this.session.compare;
    if (!c || !c.result) return;
    const list = c.result.changes;
    if (!list.length) return this.ed.status("No changes");
    c.current = i ?? (c.current < 0 ? (dir > 0 ? 0 : list.length - 1) : (c.current + dir + list.length) % list.length);
    const ch = list[c.current];
    if (ch.chain.length) this.view.reveal(ch.chain);
    else this.view.renderRows();
    // N and P go on from wherever the list was clicked.
    this.view.scroller.focus({ preventScroll: true });
    this.render();
    const line = this.el.querySelector(`.diff-line[data-index="${c.current}"]`);
    if (line) line.scrollIntoView({ block: "nearest" });
    this.ed.status(`Change ${c.current + 1} of ${list.length}: ${changeLine(this.kind, ch)}`);
  }

  takeBack(i) {
    const s = this.session, c = s && s.compare;
    const ch = c && c.result && c.result.changes[i];
    if (!ch) return;
    s.edits.takeBack(ch);
    this.view.scroller.focus({ preventScroll: true });
    if (ch.op !== "added" && ch.new && !ch.header) this.view.select(ch.op === "changed" && typeOf(s.kind, ch.new) === typeOf(s.kind, ch.old) ? ch.new : null);
    this.ed.status(`Took back ${ch.header || ch.path} (Ctrl+Z undoes it)`);
  }

  // ---- Merge…

  startMerge() {
    const s = this.session;
    if (!s) return;
    setMode(s, { merge: { base: null, theirs: null, conflicts: null, choices: [], busy: false } });
    this.view.refresh();
  }

  async chooseMergeSide(which, file) {
    const s = this.session;
    if (!s || !s.merge) return;
    const v = await this.version(file);
    if (!v || this.session !== s || !s.merge) return;
    this.setMergeSide(which, v);
  }

  setMergeSide(which, v) {
    const m = this.session && this.session.merge;
    if (!m) return;
    m[which] = v;
    m.conflicts = null;
    m.choices = [];
    this.render();
    if (m.base && m.theirs) this.merge();
  }

  // The bytes the working copy was opened from: a loose file's, or its pack's member as the
  // pack was last saved; null for a file that has none (a share).
  openedBytes() {
    const s = this.session, pack = this.ed.packs && this.ed.packs.pack;
    if (s.group === FOLDER) return pack && pack.members.has(s.path) ? pack.members.get(s.path).bytes : null;
    return s.original || null;
  }

  // Asks the server for the merge: with the choices made once every conflict has one.
  async merge() {
    const s = this.session, m = s && s.merge;
    if (!m || !m.base || !m.theirs || m.busy) return;
    const choices = m.conflicts ? m.choices : null;
    m.busy = true;
    this.render();
    this.ed.status("Merging…");
    let reply;
    try {
      reply = await treeapi.mergeTree(s.kind, { base: m.base.bytes, ours: s.doc, theirs: m.theirs.bytes, zsdic: await store.getDoc(store.DOC.zsdic), choices });
    } catch (err) {
      m.busy = false;
      this.render();
      this.ed.status("Merge failed", "error");
      this.ed.ui.toast(`Could not merge: ${err.message}`, "error");
      return;
    }
    m.busy = false;
    if (!reply.document) {
      m.conflicts = reply.conflicts;
      m.choices = reply.conflicts.map(() => "");
      this.render();
      this.ed.status(`Merge: ${count(reply.conflicts.length, "conflict")} to settle: choose ours or theirs for each, then Apply merge`);
      return;
    }
    this.apply(reply, m);
  }

  // The merged document replaces the working copy as one edit; the expanded entries and the
  // selection stay where they were, by path.
  apply(reply, m) {
    const s = this.session, v = this.view;
    const rows = flatten(s.kind, s.doc, s.expanded);
    const open = rows.filter((r) => s.expanded.has(r.node)).map((r) => r.path);
    const selected = rows.find((r) => r.node === s.selected)?.path;
    const res = s.edits.replace(reply.document, `Merge ${m.theirs.label}`);
    for (const p of open) {
      const chain = resolvePath(s.kind, s.doc, p);
      if (chain && chain.length) s.expanded.add(chain[chain.length - 1]);
    }
    setMode(s, {});
    v.refresh();
    const chain = selected && resolvePath(s.kind, s.doc, selected);
    if (chain && chain.length) v.select(chain[chain.length - 1], { reveal: true });
    const settled = reply.conflicts.length ? `, ${count(reply.conflicts.length, "conflict")} settled as chosen` : ", no conflicts";
    this.ed.status(`Merged ${m.theirs.label} (base ${m.base.label})${settled}${res.changed ? "" : ": nothing changed"} (Ctrl+Z undoes it)`);
  }

  choose(i, side) {
    const m = this.session && this.session.merge;
    if (!m || !m.conflicts) return;
    m.choices[i] = side;
    this.render();
  }

  // ---- the panel

  render() {
    const s = this.session;
    const el = this.el;
    this.shows = s ? [s, s.choosing, s.compare, s.compare && s.compare.result, s.merge] : [];
    clear(el);
    el.hidden = !s || (!s.compare && !s.merge && !s.choosing);
    if (el.hidden) return;
    if (s.choosing) {
      const btn = (label, action, onclick) => h("button.small", { dataset: { action }, onclick }, label);
      el.append(h("div.diff-head", {}, h("span.diff-title", {}, `Compare ${s.name} with:`),
        btn("A file or pack…", "tree-compare-file", () => this.compareInput.click()),
        btn("A folder…", "tree-compare-folder", () => this.pickFolder()),
        btn("Cancel", "diff-stop", () => this.stop())));
    } else if (s.compare) this.renderCompare(s.compare);
    else this.renderMerge(s.merge);
  }

  renderCompare(c) {
    const r = c.result;
    const btn = (label, action, title, onclick) => h("button.small", { dataset: { action }, title, onclick }, label);
    this.el.append(h("div.diff-head", {},
      h("span.diff-title", { dataset: { key: "tree.diff-summary" } }, `Compared with ${c.label}: ${r ? this.summary(r) : "…"}`),
      btn("↑ P", "diff-prev", "Previous change (P)", () => this.step(-1)),
      btn("↓ N", "diff-next", "Next change (N)", () => this.step(1)),
      btn("Share diff", "diff-share", "A link that opens this file compared with the other version", () => this.shareDiff()),
      btn("Stop comparing", "diff-stop", "Stop comparing: the rows lose their colours", () => this.stop())));
    if (!r) return;
    const list = h("div.diff-list", { dataset: { key: "tree.changes" } });
    r.changes.slice(0, MAX_LINES).forEach((ch, i) => {
      const line = h(`div.diff-line.diff-${ch.op}${i === c.current ? ".current" : ""}`, { dataset: { index: i }, title: "Go to the change", onclick: (e) => {
        if (!e.target.closest("button")) this.step(0, i);
      } },
        h("span.diff-text", {}, changeLine(this.kind, ch)),
        h("button.small", { dataset: { action: "diff-take-back" }, title: "Put the other version's value back here (one edit: Ctrl+Z undoes it)", onclick: () => this.takeBack(i) }, "Take back"));
      list.append(line);
    });
    if (r.changes.length > MAX_LINES) list.append(h("div.muted", {}, `… ${r.changes.length - MAX_LINES} more: N and P step through all of them`));
    this.el.append(list);
  }

  renderMerge(m) {
    const side = (which, input, label) => h("label.diff-side", {}, h("span.muted", {}, label),
      h("button.small", { dataset: { action: `tree-merge-${which}` }, onclick: () => input.click() }, m[which] ? m[which].label : "Choose…"));
    const ready = m.conflicts && m.choices.every((c) => c);
    // The file as opened (a pack member as the pack last saved it) is the usual base: the
    // version the working copy's edits were made on.
    const opened = this.openedBytes();
    this.el.append(h("div.diff-head", {},
      h("span.diff-title", {}, "Merge into this file (ours):"),
      side("base", this.baseInput, "Base"),
      opened && !m.base ? h("button.small", { dataset: { action: "tree-merge-base-opened" }, title: "The base is this file as it was opened", onclick: () => this.setMergeSide("base", { label: `${this.session.name} as opened`, bytes: opened }) }, "As opened") : null,
      side("theirs", this.theirsInput, "Theirs"),
      m.conflicts ? h("button.small", { dataset: { action: "tree-merge-apply" }, disabled: !ready || m.busy, title: "Merge with the choices made: one edit", onclick: () => this.merge() }, "Apply merge") : null,
      h("button.small", { dataset: { action: "diff-stop" }, onclick: () => this.stop() }, "Cancel")));
    if (!m.conflicts) return;
    const list = h("div.diff-list", { dataset: { key: "tree.conflicts" } });
    const text = (v) => (v === undefined ? "(none)" : v && typeof v === "object" && (v.type || v.params || v.lists) ? valueText(this.kind, this.kind === "byml" ? linkShared({ root: v }).root : v) : JSON.stringify(v));
    m.conflicts.forEach((c, i) => {
      const pick = (which) => h(`button.small${m.choices[i] === which ? ".active" : ""}`, { dataset: { action: `tree-merge-${which}-${i}` }, onclick: () => this.choose(i, which) }, which === "ours" ? "Ours" : "Theirs");
      list.append(h("div.diff-line.diff-conflict", { dataset: { index: i } },
        h("span.diff-text", {}, `! ${this.conflictPath(c.path)}: base ${text(c.base)}, ours ${text(c.ours)}, theirs ${text(c.theirs)}`),
        pick("ours"), pick("theirs")));
    });
    this.el.append(list);
  }

  // A conflict's path (the server's steps) as the rows name places: an AAMP path without
  // param_root, an unnamed entry by its decimal hash rather than 0x hex.
  conflictPath(steps) {
    let p = steps;
    if (this.kind === "aamp") {
      p = (steps[0] === "param_root" ? steps.slice(1) : steps).map((x) => x.replace(/^0x([0-9a-f]{8})(?=#|$)/, (_, hex) => String(parseInt(hex, 16))));
    }
    const header = steps.length === 1 && ["version", "bigEndian", "type"].includes(steps[0]);
    return (header ? "" : "/") + p.map(escapeKey).join("/");
  }

  // What a test reads: every row (ghosts too) with its mark and value, the Changes list's
  // lines, and the change N and P are at.
  snapshot() {
    const s = this.session, c = s && s.compare;
    return {
      rows: this.view.rows.map((r) => `${this.rowClass(r).replace(/^\./, "").replaceAll(".", " ") || "-"} ${r.path} = ${valueText(s.kind, r.node)}`),
      lines: c && c.result ? c.result.changes.map((ch) => changeLine(s.kind, ch)) : [],
      current: c ? c.current : -1,
      conflicts: s && s.merge && s.merge.conflicts ? s.merge.conflicts.length : -1,
      other: c ? c.label : "",
      link: this.lastShare || "",
    };
  }
}
