// Expression functions as code: syntax highlighting of a function's text in either of its
// forms (the readable code the document carries, or the instruction listing), and the code
// field the expressions panel and the inspector share. A field shows one function in the
// form its toggle chose; the server converts between the forms (/api/expression) and says
// where a text does not compile (line and column). A change in either form is one edit of
// the function's text (Edits.setExpressionText), so one undo takes it back.

import { h, clear } from "./dom.js";
import { failure } from "./api.js";

// The editor members this module uses: its context (context.js).
export const EDITOR_NEEDS = ["doc", "edits", "emit", "on"];

// ---- highlighting

const KEYWORDS = new Set(["if", "else", "call", "return", "noend", "goto", "unless", "asm", "setup", "inc", "dec"]);
const TYPES = new Set(["none", "imm", "bool", "int", "uint", "float", "str", "vec3f",
  "NONE", "IMM", "BOOL", "INT", "UINT", "FLOAT", "STRING", "VECTOR3F"]);
const LOCATIONS = new Set(["In", "Out", "GMem", "LMem32", "LMem64", "UserIn", "UserOut"]);
const LITERALS = new Set(["true", "false", "True", "False", "inf", "nan"]);

// One token of a line: what it is (the class it is drawn with, "" for plain text) and its text.
// The classes: addr (a listing line's offset), comment, dir (.input and other directives), kw,
// type, loc (a memory location), num, str, op (an opcode of the listing), label, name (a
// signature or other word), punct.
const TOKEN = new RegExp([
  /(\/\/.*|;.*)/.source, // 1 comment
  /("(?:[^"\\]|\\.)*"?)/.source, // 2 string (an unterminated one runs to the line's end)
  /(\.[A-Za-z_]\w*)/.source, // 3 directive
  /(-?(?:0[xX][0-9a-fA-F]+|\d+(?:\.\d*)?(?:[eE][+-]?\d+)?))/.source, // 4 number
  /([A-Za-z_][\w.]*)/.source, // 5 word
  /(\s+)/.source, // 6 space
  /(\]\.[xyzXYZ](?!\w))/.source, // 7 a vector component after a location: "].x"
  /([^\s\w"]+)/.source, // 8 punctuation and operators
].join("|"), "gy");

// tokens splits one line into tokens; their texts joined are the line.
export function tokens(line) {
  const out = [];
  const addr = /^(\s*)(0x[0-9a-fA-F]{4,})(\s\s)/.exec(line);
  let at = 0;
  if (addr) {
    if (addr[1]) out.push(["", addr[1]]);
    out.push(["addr", addr[2]], ["", addr[3]]);
    at = addr[0].length;
  }
  const label = /^(\s*)([A-Za-z_]\w*)(:)(\s*)$/.exec(line.slice(at));
  if (label) {
    if (label[1]) out.push(["", label[1]]);
    out.push(["label", label[2] + label[3]]);
    if (label[4]) out.push(["", label[4]]);
    return out;
  }
  TOKEN.lastIndex = at;
  let m;
  while (TOKEN.lastIndex < line.length && (m = TOKEN.exec(line))) {
    if (m[1] !== undefined) out.push(["comment", m[1]]);
    else if (m[2] !== undefined) out.push(["str", m[2]]);
    else if (m[3] !== undefined) out.push(["dir", m[3]]);
    else if (m[4] !== undefined) {
      // "-" after a value is the operator, not a sign.
      const prev = out.findLast((t) => t[0] !== "");
      if (m[4][0] === "-" && prev && prev[0] !== "punct" && prev[0] !== "kw" && prev[0] !== "type") {
        out.push(["punct", "-"], ["num", m[4].slice(1)]);
      } else out.push(["num", m[4]]);
    } else if (m[5] !== undefined) out.push([wordClass(m[5], out), m[5]]);
    else if (m[6] !== undefined) out.push(["", m[6]]);
    else if (m[7] !== undefined) out.push(["punct", "]"], ["loc", m[7].slice(1)]);
    else out.push(["punct", m[8]]);
  }
  if (TOKEN.lastIndex < line.length) out.push(["", line.slice(TOKEN.lastIndex)]);
  return out;
}

function wordClass(w, before) {
  if (KEYWORDS.has(w)) return "kw";
  if (TYPES.has(w)) return "type";
  if (LOCATIONS.has(w)) return "loc";
  if (LITERALS.has(w)) return "num";
  if (/^[A-Z]{3}$/.test(w) && !before.some((t) => t[0] !== "" && t[0] !== "addr")) return "op";
  return "name";
}

// highlighted fills el with the text as highlighted lines: one span.line per line (the last
// one also when the text ends in a newline, so the lines line up with a textarea's), the
// tokens as span.t-<class>. err {line, column} marks its line (.err-line) and the character
// at its column (.err-at; the column counts the line's characters, as the compiler does).
export function highlight(el, text, err) {
  clear(el);
  const lines = text.split("\n");
  lines.forEach((line, i) => {
    const bad = err && err.line === i + 1;
    const row = h("span.line" + (bad ? ".err-line" : ""), {});
    const at = bad && err.column > 0 ? charIndex(line, err.column - 1) : -1;
    let pos = 0;
    for (const [cls, t] of tokens(line)) {
      if (at >= pos && at < pos + t.length) {
        if (at > pos) row.append(span(cls, t.slice(0, at - pos)));
        row.append(h("span.err-at", {}, span(cls, t[at - pos])));
        if (at + 1 < pos + t.length) row.append(span(cls, t.slice(at - pos + 1)));
      } else row.append(span(cls, t));
      pos += t.length;
    }
    if (bad && at >= line.length) row.append(h("span.err-at.err-end", {}, " "));
    el.append(row);
    if (i < lines.length - 1) el.append("\n");
  });
  // A last empty line still takes its height, as it does in the textarea.
  el.append("\u200b");
}

function span(cls, t) {
  return cls ? h("span.t-" + cls, {}, t) : document.createTextNode(t);
}

// charIndex is the index in line (UTF-16 units) of its character number c, counting from 0
// in code points, as the compiler counts columns.
export function charIndex(line, c) {
  let n = 0, i = 0;
  for (const ch of line) {
    if (n >= c) return i;
    n++;
    i += ch.length;
  }
  return i;
}

// ---- the two forms

// isListing reports whether text is an instruction listing (it has a .main line), as the
// server decides.
export function isListing(text) {
  return /^[ \t]*\.main(?:[ \t;]|$)/m.test(text);
}

// convert asks the server for text in form "code" or "listing": {text} or {error: {line,
// column, message}} (line 0 when the error has no place). Answers are kept, keyed by form,
// version and text, so toggling back and forth or drawing the panel again costs nothing.
const converted = new Map();
const MAX_CONVERTED = 500;

export function convert(version, text, form) {
  const key = `${form}\u0000${version}\u0000${text}`;
  let p = converted.get(key);
  if (!p) {
    p = (async () => {
      const res = await fetch("/api/expression", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ version, text, to: form }),
      });
      if (res.ok) return { text: (await res.json()).text };
      const e = await failure(res);
      const d = e.detail || {};
      const error = { line: d.line || 0, column: d.column || 0, message: d.message || e.message };
      if (res.status === 422) knownErrors.set(`${version}\u0000${text}`, error);
      return { error };
    })().catch((e) => {
      converted.delete(key); // a failed request is asked again next time
      return { error: { line: 0, column: 0, message: e.message } };
    });
    if (converted.size >= MAX_CONVERTED) converted.delete(converted.keys().next().value);
    converted.set(key, p);
  }
  return p;
}

// The errors of texts that did not compile, by version and text, so a field drawn again
// shows its text's error without asking again.
const knownErrors = new Map();

function knownError(version, text) {
  const e = knownErrors.get(`${version}\u0000${text}`);
  if (knownErrors.size > MAX_CONVERTED) knownErrors.clear();
  return e || null;
}

// The form each function is shown in, per editor: "code" unless its toggle chose "listing".
const forms = new WeakMap();

function formsOf(ed) {
  let m = forms.get(ed);
  if (!m) {
    m = new Map();
    forms.set(ed, m);
    ed.on("document", () => m.clear());
  }
  return m;
}

export function formOf(ed, k) {
  return formsOf(ed).get(k) || "code";
}

// errorText is how an error reads: "line 4:7: message".
export function errorText(e) {
  if (!e) return "";
  return (e.line ? `line ${e.line}${e.column ? ":" + e.column : ""}: ` : "") + e.message;
}

// ---- the field

// functionView is function k of the open document as a code field with its form toggle:
// div.expr-fn holding the toggle (buttons data-form="code" and "listing"), the field
// (textarea data-key=<key>, over the highlighted pre) and the error line (.expr-error).
// problem is a save problem of this function ({line, column, message}) or null. The toggle
// emits "expression-form" (with k) on the editor, for the callers to draw their views again.
export function functionView(ed, k, key, problem = null) {
  const fns = ed.doc.expressions.functions;
  const version = ed.doc.expressions.version;
  const stored = fns[k].text;
  const form = formOf(ed, k);
  const ta = h("textarea.code", { spellcheck: "false", dataset: { key, form } });
  const pre = h("pre.code-hl", { "aria-hidden": "true" });
  const errEl = h("div.expr-error", {});
  const field = h("div.code-field", {}, pre, ta);
  const toggle = h("div.expr-forms", { role: "group", "aria-label": "Form" },
    [["code", "Code"], ["listing", "Instructions"]].map(([f, label]) =>
    h("button.small" + (f === form ? ".active" : ""), { dataset: { form: f, key: `${key}.form.${f}` }, "aria-pressed": String(f === form),
      title: f === "code" ? "Show the function as readable code" : "Show the function's instruction listing",
      onclick: () => {
        if (formOf(ed, k) === f) return;
        formsOf(ed).set(k, f);
        ed.emit("expression-form", k);
      } }, label)));
  const view = h("div.expr-fn", { dataset: { expression: k, form } }, toggle, field, errEl);

  let shownErr = null;
  const show = (text, err) => {
    ta.value = text;
    shownErr = err;
    highlight(pre, text, err);
    view.classList.toggle("has-error", !!err);
    errEl.textContent = err ? errorText(err) : "";
    fit(ta);
  };
  ta.addEventListener("input", () => {
    highlight(pre, ta.value, null);
    fit(ta);
  });
  ta.addEventListener("change", () => {
    const text = ta.value;
    ed.edits.setExpressionText(k, text);
    // The edit is checked at once: the text is converted to the other form, which compiles
    // it, and an error is shown at its line and column.
    // The panel or inspector may have drawn the field again by the time the answer comes:
    // every field that shows this function's text shows the answer.
    convert(version, text, isListing(text) ? "code" : "listing").then((r) => {
      for (const v of document.querySelectorAll(`.expr-fn[data-expression="${k}"]`)) {
        if (v.checked) v.checked(text, r.error || null);
      }
    });
  });

  if (isListing(stored) === (form === "listing")) {
    show(stored, problem || knownError(version, stored));
  } else {
    // The text is in the other form: shown as it is, read-only, until the server's
    // conversion comes (or, when it does not compile, with its error).
    ta.readOnly = true;
    show(stored, null);
    view.classList.add("converting");
    convert(version, stored, form).then((r) => {
      view.classList.remove("converting");
      if (fns[k] === undefined || fns[k].text !== stored) return;
      ta.readOnly = false;
      // An error is the stored text's, at its lines: it is shown in its own form.
      show(r.error ? stored : r.text, r.error || null);
    });
  }
  view.checked = (text, err) => {
    if (ta.value === text && !ta.readOnly && document.activeElement !== ta) show(text, err);
  };
  view.textarea = ta;
  view.refit = () => fit(ta);
  view.error = () => shownErr;
  return view;
}

// fit makes a textarea as tall as its text, so nothing in it scrolls out of sight.
export function fit(ta) {
  if (!ta.isConnected) return;
  ta.style.height = "auto";
  ta.style.height = `${ta.scrollHeight + 2}px`;
}
