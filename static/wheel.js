// What the mouse wheel does on the canvas: zoom at the cursor (the default, as in most
// graph editors) or pan (better with a trackpad). The choice is remembered (store.js).
// wheelAction has no DOM, so it runs under node too.

import { getPref, setPref, PREF } from "./store.js";

// Storage refused, the wheel zooms, and a choice holds for this page only through the select.
export function wheelMode() {
  return getPref(PREF.wheel) === "pan" ? "pan" : "zoom";
}

export function setWheelMode(mode) {
  setPref(PREF.wheel, mode === "pan" ? "pan" : "zoom");
}

// wheelAction turns a wheel event ({deltaX, deltaY, deltaMode, ctrlKey, metaKey, shiftKey})
// into {zoom: factor} or {pan: [dx, dy]} in screen pixels. Ctrl+wheel (and a trackpad
// pinch, which arrives as one) always zooms; in "zoom" mode a plain wheel zooms too and
// Shift+wheel or a sideways scroll pans; in "pan" mode a plain wheel pans and Shift turns
// it sideways. pageHeight is what one page of deltaMode 2 is worth.
export function wheelAction(e, mode, pageHeight) {
  const unit = e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? pageHeight : 1;
  const dx = e.deltaX * unit, dy = e.deltaY * unit;
  const zoom = () => ({ zoom: Math.exp(-dy * 0.0022) });
  if (e.ctrlKey || e.metaKey) return zoom();
  if (e.shiftKey && !e.deltaX) return { pan: [-dy, 0] };
  if (mode === "zoom" && !e.shiftKey && Math.abs(dy) >= Math.abs(dx)) return zoom();
  return { pan: [-dx, -dy] };
}
