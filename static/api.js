// The server's API. Errors come back as ApiError carrying the server's message and detail.

import { stringify } from "./jsonio.js";

export class ApiError extends Error {
  constructor(status, message, detail) {
    super(message);
    this.status = status;
    this.detail = detail;
  }
}

async function failure(res) {
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

// Returns the built file as a Blob and the name the server chose for it.
export async function build(doc) {
  const res = await fetch("/api/build", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: stringify(doc),
  });
  if (!res.ok) throw await failure(res);
  const cd = res.headers.get("Content-Disposition") || "";
  const m = /filename\*=UTF-8''([^;]+)/i.exec(cd) || /filename="?([^";]+)"?/i.exec(cd);
  return { blob: await res.blob(), filename: m ? decodeURIComponent(m[1]) : null };
}

export async function createShare(doc, view) {
  const res = await fetch("/api/shares", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: `{"document":${stringify(doc)},"view":${stringify(view)}}`,
  });
  if (!res.ok) throw await failure(res);
  return res.json();
}

export async function getShare(id) {
  const res = await fetch(`/api/shares/${encodeURIComponent(id)}`);
  if (!res.ok) throw await failure(res);
  return res.json();
}

// Lays the document's nodes out again on the server and returns one {x, y, w, h, pinned?}
// per element. Pinned positions come back unchanged unless reset asks for a layout of
// everything (which also clears the pins).
export async function layout(doc, { reset = false } = {}) {
  const res = await fetch(`/api/layout${reset ? "?reset=1" : ""}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: stringify(doc),
  });
  if (!res.ok) throw await failure(res);
  const body = await res.json();
  if (!body || !Array.isArray(body.positions)) throw new ApiError(res.status, "the layout answer has no positions");
  return body.positions;
}
