// The server's BYML/AAMP endpoints (internal/server/tree.go). Errors come back as api.js's
// ApiError with the server's message and detail.

import { failure, fileForm, text } from "./api.js";
import { encodeShared, fromCompact, linkShared } from "./treemodel.js";

// A BYML document goes with its shared nodes sent once (treemodel.encodeShared).
const docText = (kind, doc) => text(kind === "byml" && typeof doc !== "string" ? encodeShared(doc) : doc);

// Opens a BYML or AAMP file (bare, zstd or Yaz0). zsdic: the game's ZsDic.pack.zs or null.
// Answers {name, kind, wrapping: {kind, dictionary, yaz0Alignment}, size, warnings, document},
// a BYML document's shared nodes linked (treemodel.linkShared). A BYML file comes in the
// compact form (treemodel.fromCompact): a sixth of the JSON form, and read faster.
export async function openTree(name, bytes, zsdic) {
  const res = await fetch("/api/tree?form=compact", { method: "POST", body: fileForm(name, bytes, zsdic) });
  if (!res.ok) throw await failure(res);
  const reply = await res.json();
  if (reply.compact) {
    reply.document = fromCompact(reply.compact);
    delete reply.compact;
  } else if (reply.kind === "byml") linkShared(reply.document);
  return reply;
}

// Builds a document (or its JSON text) as a file. original: the bytes it was opened from,
// so the file keeps their layout and wrapping (the server needs zsdic for a zstd one).
// Answers {blob, layout ("preserved", "canonical" or "" for AAMP)}.
export async function buildTree(kind, doc, { name = "", original = null, zsdic = null } = {}) {
  const form = new FormData();
  form.append("document", new Blob([docText(kind, doc)], { type: "application/json" }), "document.json");
  if (original) form.append("file", new Blob([original]), name || `file.${kind}`);
  if (zsdic) form.append("zsdic", new Blob([zsdic]), "ZsDic.pack.zs");
  const res = await fetch(`/api/tree/build?kind=${kind}`, { method: "POST", body: form });
  if (!res.ok) throw await failure(res);
  return { blob: await res.blob(), layout: res.headers.get("Ainb-Tree-Layout") || "" };
}

// The YAML text of a document, in oead's conventions.
export async function toYAML(kind, doc) {
  const res = await fetch(`/api/tree/yaml?kind=${kind}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: docText(kind, doc) });
  if (!res.ok) throw await failure(res);
  return res.text();
}

// The document a YAML text describes. BYML's YAML says no version or byte order: opts do.
export async function fromYAML(kind, yaml, { version = 2, bigEndian = false } = {}) {
  const q = kind === "byml" ? `&version=${version}${bigEndian ? "&bigEndian=1" : ""}` : "";
  const res = await fetch(`/api/tree/from-yaml?kind=${kind}${q}`, { method: "POST", headers: { "Content-Type": "application/yaml" }, body: yaml });
  if (!res.ok) throw await failure(res);
  const doc = await res.json();
  return kind === "byml" ? linkShared(doc) : doc;
}

// Merges two versions of a tree edited from base, three ways (/api/tree/merge). Each side is
// a file's bytes (a Uint8Array, wrapped or not) or a document; choices: one "ours", "theirs"
// or "" (open) per conflict, in the order a merge without them listed them. Answers
// {kind, document (null while a conflict is open; a BYML one's shared nodes linked),
// conflicts: [{path: [steps], base, ours, theirs}]}.
export async function mergeTree(kind, { base, ours, theirs, zsdic = null, choices = null }) {
  const form = new FormData();
  const side = (name, v) => form.append(name, v instanceof Uint8Array ? new Blob([v]) : new Blob([docText(kind, v)], { type: "application/json" }), name);
  side("base", base);
  side("ours", ours);
  side("theirs", theirs);
  if (zsdic) form.append("zsdic", new Blob([zsdic]), "ZsDic.pack.zs");
  if (choices) form.append("choices", JSON.stringify(choices));
  const res = await fetch(`/api/tree/merge?kind=${kind}`, { method: "POST", body: form });
  if (!res.ok) throw await failure(res);
  const reply = await res.json();
  if (reply.document && kind === "byml") linkShared(reply.document);
  return reply;
}
