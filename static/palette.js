// The add-node palette: every class the catalogue knows (learned from the files opened and
// imported) and the built-in types, filtered by the open file's category and, when a link was
// dragged to empty space, by what fits that link. The chosen node is created with its class's
// parameters and defaults and linked, as one undoable step.

import { h, clear } from "./dom.js";
import { NODE_WIDTH, TYPE_LABEL } from "./model.js";
import { offer, template, classCount } from "./catalogue.js";
import { addLinked } from "./plugedits.js";
import { count as countOf } from "./counts.js";

// The editor members this module uses: its context (context.js).
export const EDITOR_NEEDS = ["catalogue", "doc", "edits", "on", "select", "status", "ui", "view"];

const SHOWN = 200;
const listening = new WeakSet();
const refresh = new WeakMap();

// opts: at ([wx, wy], where the node goes; the view centre by default), link (see
// plugedits.addLinked, with the plug's type and className for filtering).
export function openPalette(ed, opts = {}) {
  if (!ed.doc) return null;
  ed.ui.closeOverlays();
  const link = opts.link || null;
  const at = opts.at || [ed.view.x - 130, ed.view.y - 40];
  // A new source goes left of the input it feeds; other nodes where the link was let go.
  const place = link && link.side === "in" ? [at[0] - NODE_WIDTH - 40, at[1] - 15] : [at[0], at[1] - 15];
  const category = ed.doc.category || "";
  const input = h("input.text.palette-input", { type: "text", placeholder: "Search node classes and parameters…" });
  const allCats = h("input", { type: "checkbox", dataset: { key: "palette.allCategories" } });
  const count = h("span.muted.palette-count", {});
  const ul = h("ul.list.palette-list", {});
  let shown = [], active = 0;
  const pick = (c) => {
    el.remove();
    ed.ui.canvas.focus();
    const res = addLinked(ed.edits, template(c), Math.round(place[0]), Math.round(place[1]), link);
    if (!res.ok) {
      ed.ui.toast(`Could not add ${c.key}: ${res.reason}`, "error");
      return;
    }
    ed.select([res.id]);
    ed.status(`Added ${c.key} as #${res.id}` + (link ? ` and linked it to ${link.label || "#" + link.node}` : ""));
  };
  const render = () => {
    const all = offer(ed.catalogue.classes(), { category: allCats.checked ? "" : category, link, query: input.value });
    shown = all.slice(0, SHOWN);
    active = Math.min(active, Math.max(0, shown.length - 1));
    // The same count as the status bar's after an import (classCount), and how many of
    // them the search, the category and the link leave.
    const known = classCount(ed.catalogue.classes());
    count.textContent = (all.length === known ? countOf(known, "class", "classes") : `${all.length} of ${countOf(known, "class", "classes")}`) +
      (all.length > SHOWN ? `, first ${SHOWN} shown` : "");
    clear(ul);
    if (!shown.length) ul.append(h("li.hint", {}, link ? "No known class fits this link. Import files that use one (Import…), or search all categories." : "No class matches."));
    shown.forEach((c, k) => ul.append(h("li.item" + (k === active ? ".active" : ""), { dataset: { class: c.key } },
      h("button.item-main", { onclick: () => pick(c), title: detail(c, true) }, h("span.item-title", {}, c.key), h("span.muted", {}, detail(c, false))))));
  };
  input.addEventListener("input", () => {
    active = 0;
    render();
  });
  allCats.addEventListener("change", render);
  input.addEventListener("keydown", (e) => {
    if (e.key === "ArrowDown") active = Math.min(shown.length - 1, active + 1);
    else if (e.key === "ArrowUp") active = Math.max(0, active - 1);
    else if (e.key === "Enter" && shown[active]) return pick(shown[active]);
    else return;
    e.preventDefault();
    render();
    ul.children[active]?.scrollIntoView({ block: "nearest" });
  });
  const title = link ? linkTitle(link) : "Add a node";
  const tools = h("div.palette-tools", {},
    category ? h("label.check", { title: `Only classes seen in ${category} files are offered unless this is on` }, allCats, `all categories (this file: ${category})`) : null,
    h("span.grow", {}),
    count,
    h("button.small", { title: "Learn node classes from AINB files", dataset: { action: "catalogue-import" }, onclick: () => importFrom(false) }, "Import…"),
    h("button.small", { title: "Learn node classes from every AINB file in a folder", onclick: () => importFrom(true) }, "Import folder…"));
  const el = h("div.overlay.palette", { onclick: (e) => e.target === el && el.remove() },
    h("div.dialog", { role: "dialog", "aria-label": title }, h("div.dialog-head", {}, h("h2", {}, title)), input, tools, ul));
  // The file chooser gives the focus back to the button that opened it: the search field
  // takes it now, so what is typed once the files are chosen is a search, not lost.
  const importFrom = (folder) => {
    ed.catalogue.pick(folder);
    input.focus();
  };
  // Whatever else in the palette has the focus (a button, the checkbox), a typed character
  // goes to the search: the focus moves before the character lands, and the editor's
  // one-letter keys (A, F, L...) never see it. Space still presses the button or ticks the
  // box it is on.
  el.addEventListener("keydown", (e) => {
    if (e.target === input || e.key.length !== 1 || e.key === " " || e.ctrlKey || e.metaKey || e.altKey) return;
    input.focus();
    e.stopPropagation();
  });
  ed.ui.root.append(el);
  // An import finishing while the palette is open shows its classes at once.
  if (!listening.has(ed)) {
    listening.add(ed);
    ed.on("catalogue", () => refresh.get(ed)?.());
  }
  refresh.set(ed, () => el.isConnected && render());
  render();
  input.focus();
  return el;
}

function linkTitle(link) {
  const t = TYPE_LABEL[link.type] || link.type;
  switch (link.side) {
    case "out": return `Add a node reading ${link.label || "this output"} (${t})`;
    case "in": return `Add a node feeding ${link.label || "this input"} (${t})`;
    case "child": return `Add a node as ${link.label || "this child"}`;
    case "branch": return `Add a node as a new child of ${link.label || "#" + link.node}`;
  }
  return "Add a node";
}

function detail(c, long) {
  if (c.builtin) return "built-in";
  const parts = [];
  const n = (k, one, many) => k && parts.push(`${k} ${k === 1 ? one : many}`);
  n(c.properties.length, "property", "properties");
  n(c.inputs.length, "input", "inputs");
  n(c.outputs.length, "output", "outputs");
  if (c.query) parts.push("query");
  if (!parts.length) parts.push("no parameters");
  if (long) {
    parts.push(`seen ${c.count} time${c.count === 1 ? "" : "s"} in ${c.files} file${c.files === 1 ? "" : "s"}`);
    if (c.categories.length) parts.push(c.categories.join(", "));
    const kids = c.children.filter((k) => k.name).map((k) => k.name);
    if (kids.length) parts.push(`children: ${kids.slice(0, 8).join(", ")}${kids.length > 8 ? ", …" : ""}`);
  }
  return parts.join(" · ");
}
