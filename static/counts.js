// How the status bar and the panels say a count and a zoom: "1 node", "2 nodes"; a zoom
// as a percentage with two significant digits below 10 % ("0.4%", "9.1%"), whole above,
// so the smallest zoom the view allows (0.2 %) never reads "0%".

// count says n of a word, the plural made with "s" unless another is given.
export function count(n, word, plural = word + "s") {
  return `${n} ${n === 1 ? word : plural}`;
}

// zoomText is a zoom factor (1 = 100 %) as the status bar shows it.
export function zoomText(zoom) {
  const pc = zoom * 100;
  if (!(pc > 0) || !Number.isFinite(pc)) return "zoom ?";
  if (pc >= 9.95) return `zoom ${Math.round(pc)}%`;
  return `zoom ${Number(pc.toPrecision(2))}%`;
}
