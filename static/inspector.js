// The inspector: every field of the selected node, each with the control its type needs.
// Controls never change the document themselves; they call the edit module.

import { h, clear } from "./dom.js";
import {
  PARAM_TYPES, TYPE_COLOR, TYPE_LABEL, BB_FOR_PARAM, list, elementClass, typeName, flagSource,
  formatFloat, FLAG_QUERY, FLAG_MODULE_CALLER, FLAG_ROOT, FLAG_MULTI_V2, isSelector, branchCondition,
} from "./model.js";
import { parseF32, parseInt32, toS32 } from "./edits.js";

export class Inspector {
  constructor(ed, el) {
    this.ed = ed;
    this.el = el;
    const again = () => this.render();
    ed.on("selection", again);
    ed.on("change", again);
    ed.on("document", again);
    this.render();
  }

  // Scrolls a field into view and focuses it; key is "Inputs.Float.0" and the like.
  reveal(key) {
    const el = this.el.querySelector(`[data-key="${key}"]`);
    if (el) {
      el.scrollIntoView({ block: "center" });
      el.focus();
    }
  }

  render() {
    const ed = this.ed;
    const active = document.activeElement;
    const focusKey = active && this.el.contains(active) ? active.dataset.key : null;
    const scroll = this.el.scrollTop;
    clear(this.el);
    if (!ed.doc) {
      this.el.append(h("div.empty", {}, "Open a file to inspect its nodes."));
      return;
    }
    const sel = ed.selectionList();
    if (sel.length !== 1) {
      this.el.append(this.fileSummary(sel));
      return;
    }
    const i = sel[0];
    const e = ed.doc.file.Elements[i];
    if (!e) return;
    this.el.append(this.nodeView(i, e));
    this.el.scrollTop = scroll;
    if (focusKey) {
      const again = this.el.querySelector(`[data-key="${focusKey}"]`);
      if (again) again.focus();
    }
  }

  fileSummary(sel) {
    const f = this.ed.doc.file;
    return h("div", {},
      h("h2", {}, this.ed.name),
      h("dl.facts", {},
        fact("Version", "0x" + (f.Version || 0).toString(16)),
        fact("Filename", f.Filename || ""),
        fact("Category", f.Category || ""),
        fact("Nodes", String(f.Elements.length)),
        fact("Commands", String((f.Commands || []).length)),
        fact("Attachments", String((f.Attachments || []).length)),
        fact("Modules", (f.Modules || []).map((m) => m.Path).join(", ") || "none"),
      ),
      h("p.hint", {}, sel.length ? `${sel.length} nodes selected. Select one node to edit it.` : "Click a node to inspect and edit it."),
    );
  }

  nodeView(i, e) {
    const ed = this.ed;
    const file = ed.doc.file;
    const out = h("div.node-view", {});
    out.append(
      h("div.node-title", {},
        h("span.swatch.header-swatch", {}),
        h("h2", {}, elementClass(e)),
        h("span.idx", {}, "#" + i)),
      h("div.sub", {}, typeName(e.Type) + (e.GUID ? " · " + e.GUID : "")),
    );
    const meta = h("div.fields", {});
    meta.append(field(e.Type === 0 ? "Class" : "Name", textInput(e.Name || "", "Name", (v) => ed.edits.setField(e, "Name", v, `Rename #${i}`))));
    const flags = h("div.flags", {});
    for (const [bit, label] of [[FLAG_QUERY, "query"], [FLAG_MODULE_CALLER, "module call"], [FLAG_ROOT, "root"], [FLAG_MULTI_V2, "multi-param v2"]]) {
      flags.append(h("label.check", {},
        h("input", { type: "checkbox", checked: !!(e.Flags & bit), dataset: { key: "Flags." + bit },
          onchange: (ev) => ed.edits.setField(e, "Flags", ev.target.checked ? e.Flags | bit : e.Flags & ~bit, `Flags of #${i}`) }),
        label));
    }
    meta.append(field("Flags", flags));
    out.append(meta);

    const props = [];
    for (const t of PARAM_TYPES) list(e.Properties, t).forEach((p, j) => props.push(this.paramRow({ node: i, group: "Properties", type: t, index: j }, p)));
    if (props.length) out.append(section("Properties", props));

    const ins = [];
    for (const t of PARAM_TYPES) list(e.Inputs, t).forEach((p, j) => ins.push(this.paramRow({ node: i, group: "Inputs", type: t, index: j }, p)));
    if (ins.length) out.append(section("Inputs", ins));

    const outs = [];
    for (const t of PARAM_TYPES) {
      list(e.Outputs, t).forEach((o) => outs.push(h("div.param", {},
        h("div.param-head", {}, typeChip(t), h("span.pname", {}, o.Name), o.ClassName ? h("span.muted", {}, o.ClassName) : null))));
    }
    if (outs.length) out.append(section("Outputs", outs));

    const kids = list(e.Plugs, "Child");
    if (kids.length || isSelector(e) || e.Type === 2 || e.Type === 3) out.append(section(isSelector(e) ? "Branches" : "Children", this.children(i, e, kids)));

    const jumps = list(e.Plugs, "Transition");
    if (jumps.length) {
      out.append(section("Jumps", jumps.map((p, k) => h("div.param", {},
        h("div.param-head", {}, h("span.pname", {}, "jump " + k), goButton(ed, p.Node)),
        p.Jump ? field("Command", textInput(p.Jump.Command || "", `Jump.${k}`, (v) => ed.edits.setField(p.Jump, "Command", v, "Jump command"))) : null))));
    }
    if (e.Queries && e.Queries.length) {
      out.append(section("Queries", e.Queries.map((q) => h("div.param", {},
        h("div.param-head", {}, h("span.pname", {}, file.Elements[q] ? elementClass(file.Elements[q]) : "?"), goButton(ed, q))))));
    }
    if (e.Attachments && e.Attachments.length) {
      out.append(section("Attachments", e.Attachments.map((a) => {
        const att = (file.Attachments || [])[a];
        const rows = [h("div.param-head", {}, h("span.pname", {}, att ? att.Name : "?"), h("span.muted", {}, "attachment " + a))];
        if (att) for (const t of PARAM_TYPES) list(att.Properties, t).forEach((p, j) => rows.push(this.paramRow({ att: a, type: t, index: j }, p)));
        return h("div.attachment", {}, rows);
      })));
    }
    if (e.Actions && e.Actions.length) {
      out.append(section("Actions", e.Actions.map((a) => h("div.param", {}, h("span.pname", {}, a.Slot), " → ", a.Action))));
    }
    return out;
  }

  children(i, e, kids) {
    const ed = this.ed, file = ed.doc.file;
    const rows = kids.map((p, k) => {
      const isDefault = (e.Type === 1 || e.Type === 4 || e.Type === 5) && k === kids.length - 1;
      const cond = branchCondition(file, e, p, isDefault);
      const key = `Child.${k}`;
      const r = h("div.param", {},
        h("div.param-head", {},
          h("span.pname", {}, p.Name || `child ${k}`),
          cond ? h("span.cond", {}, cond) : null,
          h("span.grow", {}),
          goButton(ed, p.Node),
          h("button.icon", { title: "Remove this branch", onclick: () => ed.edits.removeChild(i, k) }, "✕")),
        field("Name", textInput(p.Name || "", key + ".Name", (v) => ed.edits.setPlugField(p, "Name", v))),
        field("Node", intInput(p.Node, key + ".Node", (v) => {
          const res = ed.edits.setChild(i, k, v);
          if (!res.ok) ed.ui.toast(res.reason, "error");
          return res.ok;
        })),
      );
      if (!isDefault) {
        if (e.Type === 1) r.append(field("Value", intInput(p.Int ?? 0, key + ".Int", (v) => ed.edits.setPlugField(p, "Int", toS32(v)))));
        if (e.Type === 5) r.append(field("Value", textInput(p.String ?? "", key + ".String", (v) => ed.edits.setPlugField(p, "String", v))));
        if (e.Type === 6) r.append(field("Weight", floatInput(p.Float, key + ".Float", (v) => ed.edits.setPlugField(p, "Float", Math.fround(v)))));
        if (e.Type === 4) {
          r.append(field("Min", floatInput(p.Float, key + ".Float", (v) => ed.edits.setPlugField(p, "Float", Math.fround(v)))));
          r.append(field("Max", floatInput(p.MaxFloat, key + ".MaxFloat", (v) => ed.edits.setPlugField(p, "MaxFloat", Math.fround(v)))));
        }
      }
      return r;
    });
    const target = h("input.num", { type: "text", placeholder: "node #", dataset: { key: "Child.add" } });
    rows.push(h("div.add-row", {},
      target,
      h("button", { onclick: () => {
        const v = parseInt32(target.value);
        const res = v === null ? { ok: false, reason: "type the index of the node the branch leads to" } : ed.edits.addChild(i, v);
        if (!res.ok) ed.ui.toast(res.reason, "error");
      } }, isSelector(e) ? "Add branch" : "Add child")));
    return rows;
  }

  // One property or input: its name and type, where its value comes from, and the value.
  paramRow(ref, p) {
    const ed = this.ed;
    const isInput = ref.group === "Inputs";
    const key = ref.att !== undefined ? `Att${ref.att}.${ref.type}.${ref.index}` : `${ref.group}.${ref.type}.${ref.index}`;
    const row = h("div.param", { dataset: { param: key } });
    row.append(h("div.param-head", {}, typeChip(ref.type), h("span.pname", {}, p.Name), p.ClassName ? h("span.muted", { title: p.ClassName }, p.ClassName.replace(/^.*::/, "")) : null));
    if (isInput && p.Sources) {
      p.Sources.forEach((s, k) => row.append(this.sourceControls({ ...ref, source: k }, p, s, key + ".src" + k)));
      row.append(h("div.hint", {}, `Multi-input with ${p.Sources.length} sources. Drag more outputs onto its plug to add sources.`));
      return row;
    }
    const holder = isInput ? p.Source || { Node: -1, Flags: 0 } : p;
    row.append(this.sourceControls(ref, p, holder, key));
    return row;
  }

  sourceControls(ref, p, holder, key) {
    const ed = this.ed, file = ed.doc.file;
    const isInput = ref.group === "Inputs";
    const src = isInput && holder.Node >= 0 ? { kind: "node" } : flagSource(holder.Flags || 0);
    const wrap = h("div.source", {});
    const kinds = [["value", "Value"], ["bb", "Blackboard"], ["expr", "Expression"]];
    if (isInput) kinds.splice(1, 0, ["node", "Node output"]);
    if (ref.type === "Pointer" && !isInput) kinds.splice(0, 1);
    const select = h("select.src", { dataset: { key: key + ".kind" }, title: "Where the value comes from",
      onchange: () => this.switchSource(ref, p, select.value, select, src.kind) },
    kinds.map(([v, label]) => h("option", { value: v, selected: v === src.kind }, label)));
    if (ref.source !== undefined) {
      wrap.append(h("div.src-line", {}, select,
        h("button.icon", { title: "Remove this source", onclick: () => ed.edits.disconnect(ref.node, ref.type, ref.index, ref.source) }, "✕")));
    } else wrap.append(select);
    switch (src.kind) {
      case "value":
        wrap.append(this.valueControl(ref, p, key));
        break;
      case "node": {
        const srcNode = file.Elements[holder.Node];
        const outs = srcNode ? list(srcNode.Outputs, ref.type) : [];
        const nodeIn = intInput(holder.Node, key + ".node", (v) => {
          const target = file.Elements[v];
          if (!target || !list(target.Outputs, ref.type).length) {
            ed.ui.toast(`Node #${v} has no ${TYPE_LABEL[ref.type]} output.`, "error");
            return false;
          }
          return ed.edits.setSource(ref, { kind: "node", node: v, output: 0 });
        });
        const outSel = h("select", { dataset: { key: key + ".output" },
          onchange: () => ed.edits.setSource(ref, { kind: "node", node: holder.Node, output: Number(outSel.value) }) },
        outs.map((o, k) => h("option", { value: k, selected: k === holder.Output }, o.Name)));
        if (!outs[holder.Output]) outSel.append(h("option", { value: holder.Output, selected: true }, `output ${holder.Output}?`));
        wrap.append(h("div.src-line", {}, h("span.muted", {}, "node"), nodeIn, outSel, goButton(ed, holder.Node)));
        if (srcNode) wrap.append(h("div.hint", {}, elementClass(srcNode)));
        break;
      }
      case "bb": {
        const options = this.bbOptions(ref.type);
        const cur = `${src.comp ? "Vec3f" : BB_FOR_PARAM[ref.type]}:${src.index}:${src.comp}`;
        const bbSel = h("select", { dataset: { key: key + ".bb" },
          onchange: () => {
            const [, index, comp] = bbSel.value.split(":");
            ed.edits.setSource(ref, { kind: "bb", index: Number(index), comp: Number(comp) });
          } },
        options.map((o) => h("option", { value: o.value, selected: o.value === cur }, o.label)));
        if (!options.some((o) => o.value === cur)) bbSel.append(h("option", { value: cur, selected: true }, `#${src.index} (missing)`));
        wrap.append(h("div.src-line", {}, h("span.muted", {}, "param"), bbSel));
        break;
      }
      case "expr": {
        const n = (ed.doc.functions || []).length;
        wrap.append(h("div.src-line", {}, h("span.muted", {}, "function"),
          intInput(src.index, key + ".expr", (v) => {
            if (v < 0 || v >= n) {
              ed.ui.toast(`There are ${n} expression functions (0–${n - 1}).`, "error");
              return false;
            }
            return ed.edits.setSource(ref, { kind: "expr", index: v });
          }),
          h("button.link", { onclick: () => ed.ui.showExpression(src.index) }, "show")));
        break;
      }
    }
    return wrap;
  }

  bbOptions(ptype) {
    const params = (this.ed.doc.file.Blackboard || {}).Params || {};
    const t = BB_FOR_PARAM[ptype];
    const opts = list(params, t).map((p, k) => ({ value: `${t}:${k}:0`, label: `${p.Name} (${t})` }));
    // Scalars may read one component of a vector.
    if (ptype === "Float") {
      list(params, "Vec3f").forEach((p, k) => {
        for (let c = 1; c <= 3; c++) opts.push({ value: `Vec3f:${k}:${c}`, label: `${p.Name}.${"?xyz"[c]} (Vec3f)` });
      });
    }
    return opts;
  }

  switchSource(ref, p, kind, select, was) {
    const ed = this.ed, file = ed.doc.file;
    const refuse = (msg) => {
      ed.ui.toast(msg, "error");
      select.value = was;
    };
    switch (kind) {
      case "value":
        return ed.edits.setSource(ref, { kind: "value" });
      case "node": {
        const els = file.Elements;
        for (let k = 0; k < els.length; k++) {
          if (k !== ref.node && list(els[k].Outputs, ref.type).length) return ed.edits.setSource(ref, { kind: "node", node: k, output: 0 });
        }
        return refuse(`No node has a ${TYPE_LABEL[ref.type]} output.`);
      }
      case "bb": {
        const o = this.bbOptions(ref.type)[0];
        if (!o) return refuse(`The blackboard has no ${BB_FOR_PARAM[ref.type]} parameter; add one in the Blackboard panel.`);
        const [, index, comp] = o.value.split(":");
        return ed.edits.setSource(ref, { kind: "bb", index: Number(index), comp: Number(comp) });
      }
      case "expr":
        if (!(ed.doc.functions || []).length) return refuse("The file has no expression functions.");
        return ed.edits.setSource(ref, { kind: "expr", index: 0 });
    }
  }

  valueControl(ref, p, key) {
    const ed = this.ed;
    const v = p.Value || {};
    const set = (value, comp) => ed.edits.setValue(ref, value, comp);
    switch (ref.type) {
      case "Int":
        return intInput(v.Int ?? 0, key + ".value", (x) => set(x), true);
      case "Bool":
        return h("label.check", {}, h("input", { type: "checkbox", checked: !!(v.Int ?? 0), dataset: { key: key + ".value" }, onchange: (ev) => set(ev.target.checked) }), "true");
      case "Float":
        return floatInput(v.Float, key + ".value", (x) => set(x));
      case "String":
        return textInput(v.String ?? "", key + ".value", (x) => set(x));
      case "Vector3F": {
        const vec = v.Vec || [0, 0, 0];
        return h("div.vec", {}, [0, 1, 2].map((c) => h("label.vecc", {}, "xyz"[c], floatInput(vec[c], `${key}.value.${c}`, (x) => set(x, c)))));
      }
      case "Pointer":
        return h("div.muted", {}, p.ClassName || "pointer (no value)");
    }
    return null;
  }
}

function fact(k, v) {
  return [h("dt", {}, k), h("dd", {}, v)];
}

function section(title, rows) {
  return h("section.insp", {}, h("h3", {}, title), rows);
}

function field(label, control) {
  return h("label.field", {}, h("span.flabel", {}, label), control);
}

function typeChip(t) {
  const chip = h("span.chip", {}, TYPE_LABEL[t]);
  chip.style.setProperty("--c", TYPE_COLOR[t]);
  return chip;
}

function goButton(ed, node) {
  return h("button.link", { title: `Go to node #${node}`, disabled: !(node >= 0), onclick: () => ed.focusNode(node) }, `→ #${node}`);
}

// Inputs commit on Enter or when they lose focus; invalid text is refused and marked.
function committing(input, parse, commit, show) {
  const go = () => {
    const v = parse(input.value);
    if (v === null) {
      input.classList.add("invalid");
      input.title = "Not a valid value";
      return;
    }
    input.classList.remove("invalid");
    if (commit(v) === false) input.value = show;
  };
  input.addEventListener("change", go);
  input.addEventListener("keydown", (e) => {
    if (e.key === "Enter") {
      e.preventDefault();
      go();
    } else if (e.key === "Escape") {
      input.value = show;
      input.blur();
    }
  });
  return input;
}

export function floatInput(value, key, commit) {
  const show = formatFloat(value);
  const el = h("input.num", { type: "text", value: show, spellcheck: "false", inputmode: "decimal", dataset: { key, kind: "f32" } });
  return committing(el, parseF32, commit, show);
}

export function intInput(value, key, commit, clampS32) {
  const show = String(value ?? 0);
  const el = h("input.num", { type: "text", value: show, spellcheck: "false", inputmode: "numeric", dataset: { key, kind: "s32" } });
  return committing(el, (t) => {
    const v = parseInt32(t);
    return v === null ? null : clampS32 ? toS32(v) : v;
  }, commit, show);
}

export function textInput(value, key, commit) {
  const el = h("input.text", { type: "text", value, spellcheck: "false", dataset: { key } });
  return committing(el, (t) => t, commit, value);
}
