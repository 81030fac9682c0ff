// The inspector: every field of the selected node, each with the control its type needs.
// Controls never change the document themselves; they call the edit module.
//
// Field keys (data-key) name what they edit: "name", "flag.query", "properties.3.value",
// "inputs.0.source", "inputs.1.source.2.node", "children.0.condition.int", "jumps.0.command",
// "attachment.0.properties.1.value" and so on.

import { h, clear } from "./dom.js";
import {
  TYPE_COLOR, TYPE_LABEL, NODE_FLAGS, nodeClass, sourceKind, formatFloat, isSelector, hasDefaultChild,
  conditionText, expressionText, takesChildren, childProblem, missingOutput,
} from "./model.js";
import { parseF32, parseInt32, toS32 } from "./edits.js";
import { classKey, missing } from "./catalogue.js";
import { addParam, removeParam, removeProblem } from "./plugedits.js";
import { fit } from "./exprcode.js";

// The editor members this module uses: its context (context.js).
export const EDITOR_NEEDS = ["catalogue", "copyNodeLink", "doc", "edits", "expressionView", "focusNode", "name", "nodeById", "on", "openPalette", "picker", "problems", "selectionList", "ui"];

const SOURCE_KINDS = [["value", "Value"], ["node", "Node output"], ["blackboard", "Blackboard"], ["expression", "Expression"]];

export class Inspector {
  constructor(ed, el) {
    this.ed = ed;
    this.el = el;
    const again = () => this.render();
    ed.on("selection", again);
    ed.on("change", again);
    ed.on("document", again);
    ed.on("expression-form", again);
    ed.on("problems", again);
    this.render();
  }

  // Scrolls a field into view and focuses it; key is "inputs.0" and the like (the first
  // field whose key starts with it).
  reveal(key) {
    const el = this.el.querySelector(`[data-key="${key}"]`) || this.el.querySelector(`[data-key^="${key}."]`);
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
    const n = ed.nodeById(sel[0]);
    if (!n) return;
    this.el.append(this.nodeView(n));
    for (const ta of this.el.querySelectorAll("textarea.code")) fit(ta);
    this.el.scrollTop = scroll;
    if (focusKey) {
      const again = this.el.querySelector(`[data-key="${focusKey}"]`);
      if (again) again.focus();
    }
  }

  fileSummary(sel) {
    const d = this.ed.doc;
    return h("div", {},
      h("h2.file-name", {}, this.ed.name),
      h("dl.facts", {},
        fact("Version", "0x" + (d.version || 0).toString(16)),
        fact("Filename", d.filename || ""),
        fact("Category", d.category || ""),
        fact("Nodes", String(d.nodes.length)),
        fact("Commands", String((d.commands || []).length)),
        fact("Attachments", String((d.attachments || []).length)),
        fact("Modules", (d.modules || []).map((m) => m.path).join(", ") || "none"),
      ),
      h("p.hint", {}, sel.length ? `${sel.length} nodes selected. Select one node to edit it.` : "Click a node to inspect and edit it."),
    );
  }

  nodeView(n) {
    const ed = this.ed, doc = ed.doc, id = n.id;
    const out = h("div.node-view", {});
    out.append(
      h("div.node-title", {},
        h("span.swatch.header-swatch", {}),
        h("h2", {}, nodeClass(n)),
        h("span.idx", {}, "#" + id)),
      h("div.sub", {}, n.type + (n.guid ? " · " + n.guid : "")),
      h("div.node-actions", {}, h("button.small", { dataset: { action: "node-link" },
        title: "A link that opens this file with this node selected and centred (shares the file first if it has changed since it was shared)",
        onclick: () => ed.copyNodeLink(id) }, "Copy link to this node")),
    );
    const meta = h("div.fields", {});
    meta.append(field(n.type === "UserDefined" ? "Class" : "Name", textInput(n.name || "", "name", (v) => ed.edits.renameNode(id, v))));
    const flags = h("div.flags", {});
    for (const [flag, label] of NODE_FLAGS) {
      flags.append(h("label.check", {},
        h("input", { type: "checkbox", checked: !!n[flag], dataset: { key: "flag." + flag },
          onchange: (ev) => ed.edits.setNodeFlag(id, flag, ev.target.checked) }),
        label));
    }
    meta.append(field("Flags", flags));
    out.append(meta);

    const props = (n.properties || []).map((p, j) => this.valueRow({ node: id, list: "properties", index: j }, p, `properties.${j}`));
    if (props.length) out.append(section("Properties", props));

    const ins = (n.inputs || []).map((p, j) => this.valueRow({ node: id, list: "inputs", index: j }, p, `inputs.${j}`));
    if (ins.length) out.append(section("Inputs", ins));

    const outs = (n.outputs || []).map((o, k) => h("div.param", {},
      h("div.param-head", {}, typeChip(o.type),
        nameInput(o.name, `outputs.${k}.name`, (v) => ed.edits.renameItem({ node: id, list: "outputs", index: k }, v)),
        o.className ? h("span.muted", {}, o.className) : null, this.removeButton(id, "outputs", k))));
    if (outs.length) out.append(section("Outputs", outs));
    out.append(this.classParams(n));

    out.append(section("Children", this.children(n)));

    const jumps = n.jumps || [];
    if (jumps.length) {
      out.append(section("Jumps", jumps.map((j, k) => h("div.param", {},
        h("div.param-head", {}, h("span.pname", {}, "jump " + k), h("span.grow", {}), goButton(ed, j.node),
          h("button.icon", { title: "Remove this jump", onclick: () => ed.edits.removeJump(id, k) }, "✕")),
        field("Node", intInput(j.node, `jumps.${k}.node`, (v) => this.refused(ed.edits.setJump(id, k, "node", v), `There is no node #${v}.`))),
        field("Command", textInput(j.command || "", `jumps.${k}.command`, (v) => ed.edits.setJump(id, k, "command", v)))))));
    }
    const queries = (n.queries || []).map((q, k) => {
      const target = ed.nodeById(q);
      return h("div.param", {},
        h("div.param-head", {}, h("span.pname", {}, target ? nodeClass(target) : "?"), h("span.grow", {}), goButton(ed, q),
          h("button.icon", { title: "Stop reading this query node", onclick: () => ed.edits.removeQuery(id, k) }, "✕")));
    });
    const qIn = h("input.num", { type: "text", placeholder: "node #", dataset: { key: "queries.add" } });
    queries.push(h("div.add-row", {}, qIn, h("button", { onclick: () => {
      const v = parseInt32(qIn.value);
      if (v === null || !ed.edits.addQuery(id, v)) ed.ui.toast(`Node #${qIn.value} cannot be added as a query.`, "error");
    } }, "Add query")));
    out.append(section("Queries", queries));

    if (n.attachments && n.attachments.length) {
      out.append(section("Attachments", n.attachments.map((a) => {
        const att = (doc.attachments || [])[a];
        const rows = [h("div.param-head", {}, h("span.pname", {}, att ? att.name : "?"), h("span.muted", {}, "attachment " + a))];
        if (att) (att.properties || []).forEach((p, j) => rows.push(this.valueRow({ attachment: a, index: j }, p, `attachment.${a}.properties.${j}`)));
        return h("div.attachment", {}, rows);
      })));
    }
    if (n.actions && n.actions.length) {
      out.append(section("Actions", n.actions.map((a) => h("div.param", {}, h("span.pname", {}, a.slot), " → ", a.action))));
    }
    return out;
  }

  pickSource(ref, p) {
    const label = `#${ref.node}.${p.name}` + (ref.source !== undefined ? ` (source ${ref.source})` : "");
    this.ed.picker.start({ kind: "source", ref, type: p.type, className: p.className, label });
  }

  // A ✕ for a parameter nothing uses (no source, no reader, no enum relocation); in-use ones
  // get none, with the reason on hover of the name.
  removeButton(id, list, k) {
    const ed = this.ed;
    if (removeProblem(ed.edits, id, list, k)) return null;
    return h("button.icon", { title: "Remove this unused parameter", dataset: { key: `${list}.${k}.remove` },
      onclick: () => this.refused(removeParam(ed.edits, id, list, k)) }, "✕");
  }

  // The parameters the node's class has (in the node catalogue) and the node lacks, each
  // with a button to add it with its default; "Add all" adds them in one step.
  classParams(n) {
    const ed = this.ed, id = n.id;
    const c = ed.catalogue.classes().classes.get(classKey(n));
    if (!c) return section("Class parameters", [h("p.hint", {}, "This class is not in the node catalogue yet.")]);
    const lack = missing(c, n);
    const seen = `Known from ${c.count} node${c.count === 1 ? "" : "s"} in ${c.files} file${c.files === 1 ? "" : "s"}.`;
    if (!lack.length) return section("Class parameters", [h("p.hint", {}, `Has every parameter of its class. ${seen}`)]);
    const word = { properties: "property", inputs: "input", outputs: "output" };
    const rows = lack.map(({ list, plug }) => h("div.param.missing", {},
      h("div.param-head", {}, typeChip(plug.type), h("span.pname", {}, plug.name), h("span.muted", {}, word[list]), h("span.grow", {}),
        h("button.small", { dataset: { key: `class.add.${list}.${plug.name}` }, onclick: () => this.refused(addParam(ed.edits, id, list, plug, c[list])) }, "Add"))));
    rows.unshift(h("p.hint", {}, `${lack.length} parameter${lack.length === 1 ? "" : "s"} of ${c.key} missing here. ${seen}`));
    rows.push(h("div.add-row", {}, h("button", { dataset: { key: "class.add.all" }, onclick: () => {
      ed.edits.group(`Add ${lack.length} parameters to #${id}`, () => {
        for (const { list, plug } of lack) addParam(ed.edits, id, list, plug, c[list]);
        return true;
      });
    } }, `Add all ${lack.length}`)));
    return section("Class parameters", rows);
  }

  // A refused edit says why in a toast; the field shows the stored value again.
  refused(ok, why) {
    if (ok && ok.ok !== false) return true;
    this.ed.ui.toast((ok && ok.reason) || why, "error");
    return false;
  }

  children(n) {
    const ed = this.ed, doc = ed.doc, id = n.id;
    const kids = n.children || [];
    const def = hasDefaultChild(n);
    const rows = kids.map((c, k) => {
      const isDefault = def && k === kids.length - 1;
      const cond = conditionText(doc, n, c, isDefault);
      const key = `children.${k}`;
      const r = h("div.param", {},
        h("div.param-head", {},
          h("span.pname", {}, c.name || `child ${k}`),
          cond ? h("span.cond", {}, cond) : null,
          h("span.grow", {}),
          c.node === null ? h("span.muted", { title: "The file stores 0x7FFF: this child leads to no node" }, "no node") : goButton(ed, c.node),
          h("button.icon", { title: "Remove this child", onclick: () => ed.edits.removeChild(id, k) }, "✕")),
        field("Name", textInput(c.name || "", key + ".name", (v) => ed.edits.setChildName(id, k, v))),
        field("Node", intInput(c.node, key + ".node", (v) => this.refused(ed.edits.setChild(id, k, v)))),
      );
      if (c.condition && !isDefault) r.append(...this.conditionFields(n, k, c.condition, key + ".condition"));
      return r;
    });
    // A query node runs no children (model.childProblem): it is offered no way to add one.
    if (!takesChildren(n)) {
      if (!kids.length) rows.push(h("p.hint", {}, "No children: a query node is read by others and runs none."));
      return rows;
    }
    const target = h("input.num", { type: "text", placeholder: "node #", dataset: { key: "children.add" } });
    rows.push(h("div.add-row", {},
      target,
      h("button", { onclick: () => {
        const v = parseInt32(target.value);
        const reason = v === null ? "type the id of the node the child is" : ed.nodeById(v) ? childProblem(n, ed.nodeById(v)) : "";
        this.refused(reason ? { ok: false, reason } : ed.edits.addChild(id, v));
      } }, "Add child"),
      h("button", { title: "Add a child: pick its node on the canvas", dataset: { key: "children.pick" },
        onclick: () => ed.picker.start({ kind: "branch", node: id, label: `#${id} ${nodeClass(n)}` }) }, "Pick…"),
      h("button", { title: "Add a child: a new node from the catalogue", dataset: { key: "children.new" },
        onclick: () => ed.openPalette({ at: [n.x + 340, n.y + 15], link: { side: "branch", node: id, label: `#${id} ${nodeClass(n)}` } }) }, "New…")));
    if (!kids.length && !isSelector(n)) rows.unshift(h("p.hint", {}, "No children."));
    return rows;
  }

  // The fields of a child's condition: the constants it has, and for each a blackboard
  // parameter it may compare with instead.
  conditionFields(n, k, c, key) {
    const ed = this.ed, id = n.id;
    const set = (name, v) => ed.edits.setCondition(id, k, name, v);
    const bbSelect = (name, type) => {
      const params = (ed.doc.blackboard || []).map((p, i) => [p, i]).filter(([p]) => p.type === type);
      const sel = h("select", { dataset: { key: `${key}.${name}` }, onchange: () => set(name, sel.value === "" ? null : Number(sel.value)) },
        h("option", { value: "", selected: c[name] === undefined }, "constant"),
        params.map(([p, i]) => h("option", { value: i, selected: c[name] === i }, `$${p.name}`)));
      return field(name === "blackboard" ? "Parameter" : name === "minBlackboard" ? "Min parameter" : "Max parameter", sel);
    };
    const out = [];
    if (c.int !== undefined || (c.blackboard !== undefined && c.weight === undefined)) {
      out.push(field("Value", intInput(c.int ?? 0, `${key}.int`, (v) => set("int", toS32(v)))), bbSelect("blackboard", "int"));
    }
    if (c.string !== undefined) out.push(field("Value", textInput(c.string, `${key}.string`, (v) => set("string", v))));
    if (c.weight !== undefined) out.push(field("Weight", floatInput(c.weight, `${key}.weight`, (v) => set("weight", v))), bbSelect("blackboard", "float"));
    if (c.min !== undefined || c.max !== undefined) {
      out.push(field("Min", floatInput(c.min, `${key}.min`, (v) => set("min", v))), bbSelect("minBlackboard", "float"));
      out.push(field("Max", floatInput(c.max, `${key}.max`, (v) => set("max", v))), bbSelect("maxBlackboard", "float"));
    }
    return out;
  }

  // One property or input: its name and type, where its value comes from, and the value.
  valueRow(ref, p, key) {
    const ed = this.ed;
    const row = h("div.param", { dataset: { param: key } });
    row.append(h("div.param-head", {}, typeChip(p.type),
      nameInput(p.name, key + ".name", (v) => ed.edits.renameItem(ref, v)),
      p.className ? h("span.muted", { title: p.className }, p.className.replace(/^.*::/, "")) : null,
      ref.attachment === undefined ? this.removeButton(ref.node, ref.list, ref.index) : null));
    if (Array.isArray(p.sources)) {
      p.sources.forEach((s, k) => row.append(this.sourceControls({ ...ref, source: k }, p, s, `${key}.source.${k}`)));
      row.append(h("div.src-line", {},
        h("button.small", { dataset: { key: key + ".source.add" }, onclick: () => ed.edits.addSource(ref, null) }, "Add a source"),
        h("span.hint", {}, `Multi-input with ${p.sources.length} source${p.sources.length === 1 ? "" : "s"}. Drag outputs onto its plug to add more.`)));
      row.append(this.valueControl(ref, p, key));
      return row;
    }
    row.append(this.sourceControls(ref, p, p.source, key + ".source"));
    return row;
  }

  sourceControls(ref, p, s, key) {
    const ed = this.ed, doc = ed.doc;
    const isInput = ref.list === "inputs";
    const kind = sourceKind(s);
    const wrap = h("div.source", {});
    const kinds = SOURCE_KINDS.filter(([k]) => isInput || k !== "node");
    const select = h("select.src", { dataset: { key: key + ".kind" }, title: "Where the value comes from",
      onchange: () => this.switchSource(ref, p, select.value, select, kind) },
    kinds.map(([v, label]) => h("option", { value: v, selected: v === kind }, label)));
    if (ref.source !== undefined) {
      wrap.append(h("div.src-line", {}, select,
        h("button.icon", { title: "Remove this source", onclick: () => ed.edits.disconnect(ref.node, ref.index, ref.source) }, "✕")));
    } else wrap.append(select);
    switch (kind) {
      case "value":
        // A multi-input's entries share the input's one value, shown once below them.
        if (ref.source === undefined) wrap.append(this.valueControl(ref, p, key.replace(/\.source$/, "")));
        break;
      case "node": {
        const srcNode = ed.nodeById(s.node);
        const outs = srcNode ? (srcNode.outputs || []).map((o, k) => [o, k]).filter(([o]) => o.type === p.type) : [];
        // A missing output (the file's index among the node's outputs of the type, past the
        // last) is no entry of the list: it is offered as itself until another is chosen.
        const missing = missingOutput(s);
        const cur = missing ? -1 : s.output || 0;
        const nodeIn = intInput(s.node, key + ".node", (v) => {
          const target = ed.nodeById(v);
          const first = target ? (target.outputs || []).findIndex((o) => o.type === p.type) : -1;
          if (first < 0) {
            ed.ui.toast(`Node #${v} has no ${TYPE_LABEL[p.type]} output.`, "error");
            return false;
          }
          // Another node or output keeps the expression the output goes through.
          return this.refused(ed.edits.setSource(ref, { node: v, output: first, expression: s.expression }));
        });
        const outSel = h("select", { dataset: { key: key + ".output" },
          onchange: () => this.refused(ed.edits.setSource(ref, { node: s.node, output: Number(outSel.value), expression: s.expression })) },
        outs.map(([o, k]) => h("option", { value: k, selected: k === cur }, o.name)));
        if (missing) outSel.append(h("option", { value: -1, selected: true, disabled: true }, `missing ${TYPE_LABEL[p.type]} output ${s.missingOutput}`));
        else if (!outs.some(([, k]) => k === cur)) outSel.append(h("option", { value: cur, selected: true }, `output ${cur}?`));
        const pick = h("button.small", { title: "Pick the source node on the canvas", dataset: { key: key + ".pick" },
          onclick: () => this.pickSource(ref, p) }, "Pick…");
        const fns = (doc.expressions && doc.expressions.functions) || [];
        const through = Number.isInteger(s.expression);
        wrap.append(h("div.src-line.src-node", {}, h("span.muted", {}, "node"), nodeIn, goButton(ed, s.node), pick));
        // The output list keeps its own line, as wide as the inspector, for long names; the
        // expression button goes on the line below it.
        wrap.append(h("div.src-line.src-output", {}, h("span.muted", {}, "output"), outSel));
        if (!through && fns.length) {
          wrap.append(h("div.src-line", {}, h("button.link", { dataset: { key: key + ".expression.add" }, title: "Send the output through an expression before the input gets it",
            onclick: () => this.refused(ed.edits.setSourceExpression(ref, 0)) }, "+ ƒ expression")));
        }
        if (srcNode) wrap.append(h("div.hint", {}, nodeClass(srcNode)));
        if (through) wrap.append(...this.throughExpression(ref, s, key, srcNode, fns.length));
        break;
      }
      case "blackboard": {
        const options = this.blackboardOptions(p.type);
        const cur = `${s.blackboard}:${s.component || ""}`;
        const bbSel = h("select", { dataset: { key: key + ".blackboard" },
          onchange: () => {
            const [k, comp] = bbSel.value.split(":");
            this.refused(ed.edits.setSource(ref, { blackboard: Number(k), component: comp || undefined }));
          } },
        options.map((o) => h("option", { value: o.value, selected: o.value === cur }, o.label)));
        if (!options.some((o) => o.value === cur)) bbSel.append(h("option", { value: cur, selected: true }, `#${s.blackboard} (missing)`));
        wrap.append(h("div.src-line", {}, h("span.muted", {}, "parameter"), bbSel));
        break;
      }
      case "expression": {
        const n = ((doc.expressions && doc.expressions.functions) || []).length;
        wrap.append(h("div.src-line", {}, h("span.muted", {}, "expression"),
          intInput(s.expression, key + ".expression", (v) => {
            if (v < 0 || v >= n) {
              ed.ui.toast(`There are ${n} expressions (0–${n - 1}).`, "error");
              return false;
            }
            return this.refused(ed.edits.setSource(ref, { expression: v }));
          }),
          h("button.link", { onclick: () => ed.ui.showExpression(s.expression) }, "show")));
        // The function itself, as code (or its instructions) to read and edit in place.
        if (s.expression >= 0 && s.expression < n) {
          const err = ed.problems.find((q) => q.expression === s.expression);
          wrap.append(h("div.src-expr", {}, ed.expressionView(s.expression, key + ".code",
            err ? { line: err.line || 0, column: err.column || 0, message: err.message } : null)));
        }
        break;
      }
    }
    return wrap;
  }

  // A node output that goes through expression s.expression before the input gets it: what
  // it reads, the expression's number (editable), a way to drop it while keeping the link,
  // and the function itself to read and edit in place.
  throughExpression(ref, s, key, srcNode, n) {
    const ed = this.ed;
    const out = srcNode && !missingOutput(s) ? (srcNode.outputs || [])[s.output || 0] : null;
    const from = `from node #${s.node} output ${out ? out.name : missingOutput(s) ? `(missing ${s.missingOutput})` : s.output || 0}`;
    const rows = [
      h("div.src-line.src-through", {}, h("span.muted", {}, "expression"),
        intInput(s.expression, key + ".expression", (v) => {
          if (v < 0 || v >= n) {
            ed.ui.toast(`There are ${n} expressions (0–${n - 1}).`, "error");
            return false;
          }
          return this.refused(ed.edits.setSourceExpression(ref, v));
        }),
        h("button.link", { onclick: () => ed.ui.showExpression(s.expression) }, "show"),
        h("button.link", { dataset: { key: key + ".expression.remove" }, title: "Remove the expression: the output feeds the input directly, the link stays",
          onclick: () => this.refused(ed.edits.setSourceExpression(ref, null)) }, "remove")),
      h("div.hint.src-summary", { dataset: { key: key + ".summary" } }, `${from} through expression ${s.expression}`),
    ];
    if (s.expression >= 0 && s.expression < n) {
      const err = ed.problems.find((q) => q.expression === s.expression);
      rows.push(h("div.src-expr", {}, ed.expressionView(s.expression, key + ".code",
        err ? { line: err.line || 0, column: err.column || 0, message: err.message } : null)));
    }
    return rows;
  }

  // The blackboard parameters a value of type t may read: those of its type and, for floats,
  // each component of a vec3f.
  blackboardOptions(t) {
    const opts = [];
    (this.ed.doc.blackboard || []).forEach((p, k) => {
      if (p.type === t) opts.push({ value: `${k}:`, label: `${p.name} (${p.type})` });
      if (t === "float" && p.type === "vec3f") for (const c of ["x", "y", "z"]) opts.push({ value: `${k}:${c}`, label: `${p.name}.${c} (vec3f)` });
    });
    return opts;
  }

  switchSource(ref, p, kind, select, was) {
    const ed = this.ed, doc = ed.doc;
    const refuse = (msg) => {
      ed.ui.toast(msg, "error");
      select.value = was;
    };
    switch (kind) {
      case "value":
        return ed.edits.setSource(ref, null);
      case "node": {
        // Never a guess: the user clicks the node on the canvas. Until then nothing changes.
        if (!doc.nodes.some((n) => n.id !== ref.node && (n.outputs || []).some((o) => o.type === p.type))) {
          return refuse(`No node has a ${TYPE_LABEL[p.type]} output; add one (right-click the input's plug, "Source: new node…").`);
        }
        select.value = was;
        return this.pickSource(ref, p);
      }
      case "blackboard": {
        const o = this.blackboardOptions(p.type)[0];
        if (!o) return refuse(`The blackboard has no ${TYPE_LABEL[p.type]} parameter; add one in the Blackboard panel.`);
        const [k, comp] = o.value.split(":");
        return ed.edits.setSource(ref, { blackboard: Number(k), component: comp || undefined });
      }
      case "expression":
        if (expressionText(doc, 0) === undefined) return refuse("The file has no expressions.");
        return ed.edits.setSource(ref, { expression: 0 });
    }
  }

  valueControl(ref, p, key) {
    const ed = this.ed;
    const v = p.value;
    const set = (value, comp) => ed.edits.setValue(ref, value, comp);
    switch (p.type) {
      case "int":
        return intInput(v ?? 0, key + ".value", (x) => set(x), true);
      case "bool":
        return h("label.check", {}, h("input", { type: "checkbox", checked: !!v, dataset: { key: key + ".value" }, onchange: (ev) => set(ev.target.checked) }), "true");
      case "float":
        return floatInput(v, key + ".value", (x) => set(x));
      case "string":
        return textInput(v ?? "", key + ".value", (x) => set(x));
      case "vec3f": {
        const vec = Array.isArray(v) ? v : [0, 0, 0];
        return h("div.vec", {}, [0, 1, 2].map((c) => h("label.vecc", {}, "xyz"[c], floatInput(vec[c], `${key}.value.${c}`, (x) => set(x, c)))));
      }
      case "pointer":
        return h("div.muted", {}, p.className || "pointer (no value)");
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
  const chip = h("span.chip", {}, TYPE_LABEL[t] || t);
  chip.style.setProperty("--c", TYPE_COLOR[t]);
  return chip;
}

function goButton(ed, id) {
  return h("button.link", { title: `Go to node #${id}`, disabled: !ed.nodeById(id), onclick: () => ed.focusNode(id) }, `→ #${id}`);
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

// A name that edits in place: it looks like a label until focused.
function nameInput(value, key, commit) {
  const el = textInput(value, key, commit);
  el.classList.add("pname-input");
  el.title = "Rename";
  return el;
}
