// JSON text for documents. JSON.stringify writes -0 as 0, which would silently change a float
// the user never touched, so numbers go through our own writer; everything else (key order,
// unknown keys, strings) is written exactly as parsed.

export function stringify(value) {
  const out = [];
  write(value, out);
  return out.join("");
}

function write(v, out) {
  switch (typeof v) {
    case "number":
      out.push(Object.is(v, -0) ? "-0" : Number.isFinite(v) ? String(v) : "null");
      return;
    case "string":
      out.push(JSON.stringify(v));
      return;
    case "boolean":
      out.push(v ? "true" : "false");
      return;
    case "object":
      if (v === null) {
        out.push("null");
        return;
      }
      if (Array.isArray(v)) {
        out.push("[");
        for (let i = 0; i < v.length; i++) {
          if (i) out.push(",");
          write(v[i] === undefined ? null : v[i], out);
        }
        out.push("]");
        return;
      }
      out.push("{");
      let first = true;
      for (const k in v) {
        const x = v[k];
        if (x === undefined || typeof x === "function") continue;
        if (!first) out.push(",");
        first = false;
        out.push(JSON.stringify(k), ":");
        write(x, out);
      }
      out.push("}");
      return;
  }
  out.push("null");
}

// A deep copy that keeps -0 (structuredClone does too, but this one is cheaper on plain
// JSON data and never carries class instances along).
export function clone(v) {
  if (v === null || typeof v !== "object") return v;
  if (Array.isArray(v)) return v.map(clone);
  const o = {};
  for (const k in v) o[k] = clone(v[k]);
  return o;
}
