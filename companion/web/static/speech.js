// The spoken calls (docs/speech.md): every live page (/, /control, /tv) says the box's new calls
// ("Ben's turn", "Time!") with the browser's speech synthesis once a person has tapped its
// switch on, and puts them in an aria-live region for screen readers. The calls come in the
// snapshot (`calls`: the last few, numbered `n`; `speech`: which kinds to say, espeak-ng's
// words a minute and volume, the voice's language). A page speaks only calls numbered past the
// newest it has seen: one opened late says nothing old, and one that fell behind drops a turn
// call whose turn is over (a later turn call exists). A snapshot of another run of the box
// (`speech.run`: it restarted and counts again from 1) is like the first: nothing old is said.
"use strict";

(function () {
  const KEY = "chroma.speech";  // localStorage: "on" once a person tapped the switch on here
  const TURN_KINDS = ["turn", "reverse", "skip"];  // session/calls.py TURN_KINDS
  const NORMAL_WPM = 175;  // espeak-ng's normal rate: the browser's rate 1
  const synth = window.speechSynthesis || null;
  let last = null;  // the number of the newest call seen; null: no snapshot yet
  let run = null;  // the box's run those numbers belong to (speech.run): a restart has another
  let on = false;
  let pending = [];  // {call, started}: utterances queued and not finished

  const aboutTurn = (c) => TURN_KINDS.includes(c.kind);
  // A call after which the calls about the turn made before it are stale (Call.ends_turns).
  const endsTurns = (c) => aboutTurn(c) || c.kind === "end";

  function stored() {
    try { return localStorage.getItem(KEY) === "on"; } catch (e) { return false; }
  }

  function store(value) {
    try { localStorage.setItem(KEY, value ? "on" : "off"); } catch (e) { /* private mode */ }
  }

  function showSwitch() {
    const el = document.getElementById("speech-switch");
    if (!el) return;
    el.hidden = !synth;
    el.setAttribute("aria-pressed", on ? "true" : "false");
    el.dataset.on = on ? "yes" : "no";
    const state = el.querySelector(".speech-state");
    if (state) state.textContent = on ? "on" : "off";
  }

  function utter(text, speech) {
    const u = new SpeechSynthesisUtterance(text);
    if (speech) {
      if (speech.lang) u.lang = speech.lang;
      u.rate = Math.min(10, Math.max(0.1, (speech.rate || NORMAL_WPM) / NORMAL_WPM));
      u.volume = Math.min(1, Math.max(0, (speech.volume ?? 100) / 100));
    }
    return u;
  }

  function say(call, speech) {
    const u = utter(call.text, speech);
    const entry = { call, started: false };
    const done = () => { pending = pending.filter((p) => p !== entry); };
    u.onstart = () => { entry.started = true; };
    u.onend = done;
    u.onerror = done;
    pending.push(entry);
    synth.speak(u);
  }

  function speak(calls, speech) {
    if (!on || !synth || !calls.length) return;
    const kinds = speech && Array.isArray(speech.calls) ? speech.calls : null;
    const wanted = calls.filter((c) => !kinds || kinds.includes(c.kind));
    if (calls.some(endsTurns) && pending.some((p) => aboutTurn(p.call))) {
      // Still saying an older turn's call: that turn is over. Drop it, keep the rest unsaid.
      const keep = pending.filter((p) => !p.started && !aboutTurn(p.call)).map((p) => p.call);
      pending = [];
      synth.cancel();
      for (const c of keep) say(c, speech);
    }
    for (const c of wanted) say(c, speech);
  }

  function fresh(calls) {
    // The calls past `last`, less the turn calls a later turn call (or the game over) made
    // stale.
    const newestTurn = Math.max(0, ...calls.filter(endsTurns).map((c) => c.n));
    return calls.filter((c) => c.n > last && !(aboutTurn(c) && c.n < newestTurn));
  }

  function announce(calls) {
    const el = document.getElementById("call-live");
    if (el && calls.length) el.textContent = calls.map((c) => c.text).join(". ");
  }

  function newRun(s) {
    // True when the snapshot's calls are numbered by another run of the box than the ones
    // heard so far (it restarted: its numbers began again at 1, and may have passed `last`).
    const now = (s.speech && s.speech.run) || "";
    const changed = run !== null && now !== run;
    run = now;
    return changed;
  }

  function onSnapshot(s) {
    const calls = Array.isArray(s.calls) ? s.calls : [];
    const top = calls.length ? calls[calls.length - 1].n : 0;
    const restarted = newRun(s);
    if (last === null || restarted || top < last) {
      // The first snapshot (a page opened late), or a box that restarted counting: all old.
      last = top;
      return;
    }
    const news = fresh(calls);
    last = Math.max(last, top);
    announce(news);
    speak(news, s.speech);
  }

  function toggle() {
    on = !on;
    store(on);
    showSwitch();
    if (!synth) return;
    synth.cancel();
    pending = [];
    // Said inside the tap: the browser lets a page speak once a person has tapped.
    if (on) synth.speak(utter("Calls on", Table.snapshot && Table.snapshot.speech));
  }

  function start() {
    on = Boolean(synth) && stored();
    showSwitch();
    const el = document.getElementById("speech-switch");
    if (el) el.addEventListener("click", toggle);
    Table.onRender(onSnapshot);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
