// What a document uses, for search and "find usages" across a folder of files: each node's
// class, the blackboard parameters its values and conditions read, and the module it calls.
// No DOM, so it runs under node.

import { nodeClass } from "./model.js";

export const KINDS = ["class", "blackboard", "module"];
export const KIND_LABEL = { class: "node class", blackboard: "blackboard parameter", module: "module" };

// The usages of one document: [kind, name, node id], one per node, kind and name.
export function usagesOf(doc) {
  const out = [];
  const bb = doc.blackboard || [];
  for (const n of doc.nodes || []) {
    const seen = new Set();
    const add = (kind, name) => {
      const key = kind + "\0" + name;
      if (name === undefined || name === "" || seen.has(key)) return;
      seen.add(key);
      out.push([kind, name, n.id]);
    };
    add("class", nodeClass(n));
    if (n.moduleCaller) add("module", n.name);
    const param = (k) => Number.isInteger(k) && bb[k] && add("blackboard", bb[k].name);
    for (const g of ["properties", "inputs"]) {
      for (const p of n[g] || []) {
        if (p.source) param(p.source.blackboard);
        for (const s of p.sources || []) param(s.blackboard);
      }
    }
    for (const c of n.children || []) {
      const cond = c.condition;
      if (cond) for (const f of ["blackboard", "minBlackboard", "maxBlackboard"]) param(cond[f]);
    }
  }
  return out;
}

// Finds usages across files ([{file, usages}]): names containing query (any case) of kind
// (or every kind for ""). Exact names come first, then by file and node.
export function findUsages(files, kind, query) {
  const q = query.trim().toLowerCase();
  if (!q) return [];
  const hits = [];
  for (const f of files) {
    for (const [k, name, node] of f.usages) {
      if ((kind && k !== kind) || !name.toLowerCase().includes(q)) continue;
      hits.push({ file: f.file, kind: k, name, node, exact: name.toLowerCase() === q });
    }
  }
  hits.sort((a, b) => (b.exact - a.exact) || a.file.localeCompare(b.file) || a.node - b.node);
  return hits;
}

// The base of a file name without .zs and .ainb: "Foo.module" for "Foo.module.ainb.zs".
export function baseName(name) {
  return name.replace(/^.*[\\/]/, "").replace(/\.zs$/i, "").replace(/\.ainb$/i, "");
}

// The file of files ([{file, filename}]) that a module-caller node named module calls: the one
// whose name is the module's (Foo.module.ainb for Foo.module), else the one whose header names
// itself so (the file name inside the AINB). Any case. null when none.
export function resolveModule(files, module) {
  const m = baseName(module).toLowerCase();
  return files.find((f) => baseName(f.file).toLowerCase() === m) ||
    files.find((f) => (f.filename || "").toLowerCase() === m) || null;
}
