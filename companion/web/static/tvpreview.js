// /tv-preview: /tv's page without its stream, framed by /design (docs/web.md "Designing a
// game on a phone"). It draws, with /tv's own renderer (table.js), the snapshot of the game
// being designed that /design posts it; it takes a message only from the page that frames it,
// on the box's own origin, and changes nothing on the box (it sends no request).
"use strict";
(function () {
  const framed = window.parent !== window;
  window.addEventListener("message", (ev) => {
    if (!framed || ev.source !== window.parent || ev.origin !== location.origin) return;
    if (ev.data && ev.data.hello) { window.parent.postMessage({ready: true}, location.origin); return; }
    const s = ev.data && ev.data.snapshot;
    if (!s || typeof s !== "object" || !Array.isArray(s.players)) return;
    Table.show(s);
    // The box's screen is the design's own once /design has it; until then (a guest's
    // phone: the box draws it for a paired one only) no empty picture.
    document.querySelector(".panel.frame").hidden = !s.frame;
    document.body.dataset.shown = String(ev.data.n);  // which check's game is drawn
  });
  // Ready: said as it starts, and again when /design asks (its script may start after this).
  if (framed) window.parent.postMessage({ready: true}, location.origin);
})();
