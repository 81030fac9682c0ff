// The server's API. Errors come back as ApiError carrying the server's message and detail.
// Documents travel as JSON text made by the native JSON.stringify: the document is plain
// JSON (floats JSON cannot hold are strings of their bits).

// A document as JSON text (documents may come as text already).
export const text = (v) => (typeof v === "string" ? v : JSON.stringify(v));

export class ApiError extends Error {
  constructor(status, message, detail) {
    super(message);
    this.status = status;
    this.detail = detail;
  }
}

// The ApiError a failed response stands for.
export async function failure(res) {
  let body = null;
  try {
    body = await res.json();
  } catch {
    // not JSON: the status says enough
  }
  return new ApiError(res.status, (body && body.error) || `${res.status} ${res.statusText}`, body && body.detail);
}

export async function parseFile(name, bytes) {
  const res = await fetch(`/api/parse?name=${encodeURIComponent(name)}`, {
    method: "POST",
    headers: { "Content-Type": "application/octet-stream" },
    body: bytes,
  });
  if (!res.ok) throw await failure(res);
  return res.json();
}

// Like parseFile, and says whether the upload was zstd-compressed: zstd is the dictionary id
// of its frame (0 for none), or null for a plain file. zsdic: the game's ZsDic.pack.zs
// (bytes) for a file compressed with one of its dictionaries, or null (the server's own
// dictionaries serve, if it has any).
export async function parseUpload(name, bytes, zsdic = null) {
  const res = await fetch(`/api/parse?name=${encodeURIComponent(name)}`, zsdic ? { method: "POST", body: fileForm(name, bytes, zsdic) } : {
    method: "POST",
    headers: { "Content-Type": "application/octet-stream" },
    body: bytes,
  });
  if (!res.ok) throw await failure(res);
  const z = res.headers.get("Ainb-Zstd-Dictionary");
  return { doc: await res.json(), zstd: z === null ? null : Number(z) };
}

// Returns the built file as a Blob and the name the server chose for it. doc is the
// document or its JSON text. zstd: a dictionary id (0 for none) to get the file
// zstd-compressed with it, or null for the plain file; zsdic: the game's ZsDic.pack.zs that
// holds that dictionary, or null for the server's own.
export async function build(doc, { zstd = null, zsdic = null } = {}) {
  let init = { method: "POST", headers: { "Content-Type": "application/json" }, body: text(doc) };
  if (zsdic && zstd) {
    const form = new FormData();
    form.append("zsdic", new Blob([zsdic]), "ZsDic.pack.zs");
    form.append("document", new Blob([init.body], { type: "application/json" }), "document.json");
    init = { method: "POST", body: form };
  }
  const res = await fetch(zstd === null ? "/api/build" : `/api/build?zstd=${zstd}`, init);
  if (!res.ok) throw await failure(res);
  const cd = res.headers.get("Content-Disposition") || "";
  const m = /filename\*=UTF-8''([^;]+)/i.exec(cd) || /filename="?([^";]+)"?/i.exec(cd);
  return { blob: await res.blob(), filename: m ? decodeURIComponent(m[1]) : null };
}

// kind says what the document is: "ainb" (the editor's document) or "tree" (a BYML or AAMP
// tree), stored with the share so it opens as what it is.
export async function createShare(doc, view, kind) {
  const res = await fetch("/api/shares", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: `{"kind":${JSON.stringify(kind)},"document":${text(doc)},"view":${JSON.stringify(view)}}`,
  });
  if (!res.ok) throw await failure(res);
  return res.json();
}

export async function getShare(id) {
  const res = await fetch(`/api/shares/${encodeURIComponent(id)}`);
  if (!res.ok) throw await failure(res);
  return res.json();
}

// Lays the document's nodes out again on the server and returns one {id, x, y, pinned?}
// per node. Pinned nodes come back where they are unless reset asks for a layout of
// everything (which also clears the pins). aspect is the canvas's width over its height:
// the arrangement aims at that shape, so that fitting it all fills the canvas.
export async function layout(doc, { reset = false, aspect = 0 } = {}) {
  const q = new URLSearchParams();
  if (reset) q.set("reset", "1");
  if (aspect > 0 && Number.isFinite(aspect)) q.set("aspect", aspect.toFixed(3));
  const res = await fetch(`/api/layout${q.size ? "?" + q : ""}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: text(doc),
  });
  if (!res.ok) throw await failure(res);
  const body = await res.json();
  // {"nodes": [...]} or {"positions": [...]}, one {id, x, y, pinned} per node.
  const list = body && (Array.isArray(body.nodes) ? body.nodes : body.positions);
  if (!Array.isArray(list)) throw new ApiError(res.status, "the layout answer has no positions");
  return list;
}

// Opens a pack (a SARC archive, bare, Yaz0 or TotK zstd). zsdic: the game's ZsDic.pack.zs
// (bytes) for a zstd pack with a dictionary, or null. Answers {name, wrapping, files:
// [{name, size, format, data (base64)}]}.
export async function openPack(name, bytes, zsdic) {
  const res = await fetch("/api/pack", { method: "POST", body: packForm(name, bytes, zsdic, []) });
  if (!res.ok) throw await failure(res);
  return res.json();
}

// Builds the pack again with members ({name, data: Blob}) replaced; answers {blob, warnings}:
// the pack's Blob and what it breaks of its format's rules with what saving did about it
// (the Ainb-Pack-Warnings header, a JSON array; [] without it).
export async function buildPack(name, bytes, zsdic, members) {
  const res = await fetch("/api/pack/build", { method: "POST", body: packForm(name, bytes, zsdic, members) });
  if (!res.ok) throw await failure(res);
  const w = res.headers.get("Ainb-Pack-Warnings");
  return { blob: await res.blob(), warnings: w ? JSON.parse(w) : [] };
}

// A multipart form with a file and, for one compressed with the game's dictionaries, the
// game's ZsDic.pack.zs (or null).
export function fileForm(name, bytes, zsdic) {
  const form = new FormData();
  if (zsdic) form.append("zsdic", new Blob([zsdic]), "ZsDic.pack.zs");
  form.append("file", new Blob([bytes]), name);
  return form;
}

function packForm(name, bytes, zsdic, members) {
  const form = fileForm(name, bytes, zsdic);
  // A member is named by its whole path in the pack, as the part's file name.
  for (const m of members) form.append("member", m.data, m.name);
  return form;
}

// What changed from document a (the other file) to b (the working copy): /api/diff's
// {changes: [{op, path, old, new, nodeA, nodeB}]}.
// Either may be a Blob of its JSON text: the other version, sent again after every edit, is
// then encoded once, not at every refresh.
export async function diff(a, b) {
  const part = (v) => (v instanceof Blob ? v : text(v));
  return postJSON("/api/diff", new Blob(['{"a":', part(a), ',"b":', part(b), "}"]));
}

// Three-way merge (/api/merge): {document (null while conflicts stand), conflicts}. prefer:
// "ours", "theirs" or "" (list the conflicts).
export async function merge(base, ours, theirs, prefer = "") {
  const p = prefer ? `,"prefer":${JSON.stringify(prefer)}` : "";
  return postJSON("/api/merge", `{"base":${text(base)},"ours":${text(ours)},"theirs":${text(theirs)}${p}}`);
}

async function postJSON(url, body) {
  const res = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body });
  if (!res.ok) throw await failure(res);
  return res.json();
}
