// The Resume buttons of /games (paired browsers only: the page has them, and this script, only
// then). It follows the box's snapshots, so a resume is asked on the snapshot the page knows
// (its "seq"); while another game is in progress the first tap asks first ("Set Chaos #3 aside and
// resume"), the second sends "replaces". A button is disabled until its answer is in.
"use strict";

(function () {
  const errorLine = document.getElementById("error");
  const buttons = [...document.querySelectorAll("button.resume")];
  let snap = null;
  let armed = null;  // [button, id of the game it sets aside, when it was armed]
  // The second tap of a double tap is not the confirming one (as control.js's DOUBLE_TAP_MS).
  const DOUBLE_TAP_MS = 700;
  let armTimer = 0;

  function showError(text) {
    errorLine.textContent = text;
    errorLine.hidden = !text;
  }
  function label(b) { return "Resume " + b.dataset.title; }
  function inProgress() {
    return snap && snap.game && !(snap.state || {}).over ? snap.game_id : null;
  }
  function leftAside() {
    // The unfinished game left for the start menu: resuming another sets it aside (it stays
    // resumable, so nothing is asked), but the box wants it named ("replaces").
    return snap && !snap.game && snap.left ? snap.left.game_id : null;
  }
  function disarm() {
    clearTimeout(armTimer);
    if (armed) { armed[0].textContent = label(armed[0]); armed[0].classList.remove("danger"); }
    armed = null;
  }
  function render() {
    const playing = inProgress();
    for (const b of buttons) {
      const here = snap && String(snap.game_id) === b.dataset.game;
      b.hidden = here && !!snap.game;  // the game being played needs no Resume
    }
    if (armed && String(armed[1]) !== String(playing)) disarm();
  }

  async function resume(b) {
    if (b.disabled) return;
    showError("");
    const playing = inProgress();
    const body = {game: parseInt(b.dataset.game, 10), seq: snap ? snap.seq : 0};
    if (playing !== null) {
      if (!armed || armed[0] !== b || armed[1] !== playing) {
        disarm();
        armed = [b, playing, Date.now()];
        // What the box does: the game in progress is set aside (Games offers it again).
        b.textContent = "Set " + (snap.title || snap.game) + " #" + playing + " aside and resume";
        armTimer = setTimeout(disarm, 8000);
        return;
      }
      if (Date.now() - armed[2] < DOUBLE_TAP_MS) return;  // a double tap's second tap
      body.replaces = playing;
    } else if (leftAside() !== null && String(leftAside()) !== b.dataset.game) {
      body.replaces = leftAside();
    }
    disarm();
    b.disabled = true;
    try {
      const res = await fetch("/api/resume", {
        method: "POST", credentials: "same-origin",
        headers: {"Content-Type": "application/json"}, body: JSON.stringify(body),
      });
      let data = null;
      try { data = await res.json(); } catch (e) { /* no JSON body */ }
      if (res.ok) { location.href = "/"; return; }
      showError((data && data.error) || ("HTTP " + res.status));
    } catch (e) {
      showError("The box does not answer: " + (e.message || e));
    } finally {
      b.disabled = false;
    }
  }

  for (const b of buttons) b.addEventListener("click", () => resume(b));
  // A Resume asks on the box's snapshot (the game being played, the one left for the start
  // menu): until the first is in, a tap would ask on nothing and be refused, so the buttons
  // wait for it (a fast tap, or a slow box, no longer gets "the game moved on").
  for (const b of buttons) b.disabled = true;
  const source = new EventSource("/api/events");
  source.onmessage = (ev) => {
    const first = snap === null;
    try { snap = JSON.parse(ev.data); } catch (e) { return; }
    document.body.dataset.seq = String(snap.seq);
    if (first) for (const b of buttons) b.disabled = false;
    render();
  };
})();
