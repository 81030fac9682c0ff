// The YAML view of a tree file: the document as the server writes it in oead's conventions,
// editable; Apply reads it back and replaces the document as one undoable step. A YAML
// problem is shown with its line, and the caret goes to that line.

import { h } from "./dom.js";
import * as treeapi from "./treeapi.js";

// The editor members this module uses: its context (context.js).
export const EDITOR_NEEDS = ["status", "ui"];

export class TreeYaml {
  constructor(ed, view, host) {
    this.ed = ed;
    this.view = view;
    this.host = host;
    this.session = null;
    this.text = h("textarea.tree-yaml-text", { spellcheck: false, dataset: { key: "tree.yaml" }, "aria-label": "YAML" });
    this.text.addEventListener("input", () => {
      this.edited = true;
      this.note.textContent = "Edited: Apply reads it into the tree.";
    });
    this.error = h("div.tree-yaml-error", { dataset: { key: "tree.yaml-error" }, hidden: true });
    this.note = h("span.muted", {});
    this.applyButton = h("button.small", { dataset: { action: "tree-yaml-apply" }, title: "Read the YAML into the tree (one undoable step)", onclick: () => this.apply() }, "Apply");
    host.append(
      h("div.tree-yaml-head", {}, this.applyButton,
        h("button.small", { dataset: { action: "tree-yaml-reload" }, title: "Show the tree's YAML again, dropping the typing", onclick: () => this.load() }, "Revert"),
        h("button.small", { dataset: { action: "tree-yaml-close" }, title: "Back to the tree", onclick: () => this.toggle(false) }, "Tree"),
        this.note),
      this.error, this.text);
  }

  // The session shown (null: none). The YAML view stays open across files only when asked.
  show(session) {
    if (session !== this.session) this.toggle(false);
    this.session = session;
  }

  async toggle(open = this.host.hidden) {
    if (!open) {
      this.host.hidden = true;
      this.view.scroller.hidden = false;
      this.view.yamlButton.classList.remove("active");
      this.view.queueRender();
      return;
    }
    if (!this.session) return;
    this.host.hidden = false;
    this.view.scroller.hidden = true;
    this.view.yamlButton.classList.add("active");
    await this.load();
  }

  // Shows the document's YAML, dropping any typing.
  async load() {
    const s = this.session;
    if (!s) return false;
    this.error.hidden = true;
    this.note.textContent = "Loading…";
    // Nothing can be typed or applied until the text is the document's.
    this.text.value = "";
    this.text.readOnly = this.applyButton.disabled = true;
    try {
      const yaml = await treeapi.toYAML(s.kind, s.doc);
      if (s !== this.session) return false;
      this.text.value = yaml;
      this.edited = false;
      this.note.textContent = `${yaml.split("\n").length - 1} lines`;
      return true;
    } catch (err) {
      this.note.textContent = "";
      this.ed.ui.toast(`Could not show the YAML: ${err.message}`, "error");
      return false;
    } finally {
      this.text.readOnly = this.applyButton.disabled = false;
    }
  }

  // The tree changed (an edit, undo or redo): untouched YAML follows it.
  documentChanged() {
    if (this.host.hidden || !this.session) return;
    if (!this.edited) this.load();
    else this.note.textContent = "The tree changed since this YAML was shown: Revert shows it again.";
  }

  async apply() {
    const s = this.session;
    if (!s) return false;
    this.error.hidden = true;
    let doc;
    try {
      doc = await treeapi.fromYAML(s.kind, this.text.value, { version: s.doc.version, bigEndian: s.doc.bigEndian });
    } catch (err) {
      this.showError(err);
      return false;
    }
    if (s !== this.session) return false;
    const res = s.edits.replace(doc);
    this.edited = false;
    this.note.textContent = res.changed ? "Applied." : "Applied: nothing changed.";
    this.ed.status(res.changed ? "Applied the YAML" : "The YAML says what the tree says");
    return true;
  }

  showError(err) {
    const d = err.detail || {};
    this.error.textContent = err.message;
    this.error.hidden = false;
    this.ed.status("The YAML is not valid", "error");
    if (!Number.isInteger(d.line) || d.line < 1) return;
    // Select the line, and scroll it into view (the message says the column).
    const lines = this.text.value.split("\n");
    let at = 0;
    for (let l = 0; l < d.line - 1 && l < lines.length; l++) at += lines[l].length + 1;
    this.text.focus({ preventScroll: true });
    this.text.setSelectionRange(at, at + (lines[d.line - 1] || "").length);
    const lh = parseFloat(getComputedStyle(this.text).lineHeight) || 17;
    this.text.scrollTop = Math.max(0, (d.line - 3) * lh);
  }
}
