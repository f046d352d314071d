// Controls for a paired phone: the six buttons, undo/redo, each game kind's own actions as
// forms, a new game with typed names, and the roster. Every action goes to the box's API, which
// checks it with the same rules engine as the buttons; an error is shown as one line.
// One tap is one action: every change carries the seq of the snapshot this page last rendered
// (the box refuses it with 409 when the game moved on since), and the control that sent it
// stays disabled until its answer is in and the snapshot with its change has rendered.
"use strict";

(function () {
  const {h} = Table;
  const onControlPage = document.body.classList.contains("mode-control");
  const errorLine = document.getElementById("error");
  let paired = false;
  const FORGOTTEN = "This phone was forgotten on the box: pair again";
  let kinds = null;
  let roster = [];
  let actionsKey = "";

  // /control: the turn's controls (NEXT, Undo, Pause, the game's main actions) go under
  // whose turn it is, above the scoreboard: at 360x640 they show without scrolling (issue
  // 34, item 7). On / (watching first) they stay with the other controls, below the game.
  const drive = document.getElementById("drive");
  if (onControlPage) document.getElementById("turn").after(drive);

  // The dice of "Record a roll", a common action of every kind: [name, label, faces]. A kind
  // that declares its dice (the snapshot's `dice`: a design's) is offered those alone.
  const COLOR_FACES = ["red", "orange", "yellow", "green", "blue", "logo"];
  const SHAPE_FACES = ["square", "circle", "star", "cross", "pentagon", "logo"];
  const DICE = [["colors", "Colors", COLOR_FACES], ["shapes", "Shapes", SHAPE_FACES],
                ["d8", "8-sided", [1, 2, 3, 4, 5, 6, 7, 8]], ["d6", "6-sided", [1, 2, 3, 4, 5, 6]]];
  function diceOf(s) {
    // null: the kind does not say (every die); [] : it uses none (no ROLL, no Record a roll).
    return Array.isArray(s.dice) ? DICE.filter(([k]) => s.dice.includes(k)) : DICE;
  }

  // --- talking to the box -------------------------------------------------------------------
  let noteTimer = 0;
  function showError(text) {
    clearTimeout(noteTimer);
    errorLine.classList.remove("info");
    errorLine.textContent = text;
    errorLine.hidden = !text;
  }
  function showNote(text) {
    // A short word that is not an error (a press the box's screen ignored).
    showError(text);
    errorLine.classList.add("info");
    noteTimer = setTimeout(() => showError(""), 2500);
  }

  const busy = new Set();  // controls waiting for their answer
  // The snapshot this page shows: a change is asked on it.
  function shownSeq() { return Table.snapshot ? Table.snapshot.seq : 0; }
  const waiting = new Set();  // [seq, resolve] of rendered() calls: told by each render
  function rendered(seq) {
    // Resolves once the snapshot `seq` (or a later one) has rendered, or after 3 s.
    return new Promise((resolve) => {
      if (shownSeq() >= seq) { resolve(); return; }
      const w = [seq, resolve];
      waiting.add(w);
      setTimeout(() => { waiting.delete(w); resolve(); }, 3000);
    });
  }
  function renderedNow() {
    for (const w of [...waiting]) if (shownSeq() >= w[0]) { waiting.delete(w); w[1](); }
  }

  async function call(method, path, body) {
    // A change the user asked for clears the last word; a read in the background (the forms,
    // the roster, /api/me on a reconnect) leaves what the user was just told on the page.
    if (method !== "GET") showError("");
    let res;
    try {
      res = await fetch(path, {
        method, credentials: "same-origin",
        headers: body === undefined ? {} : {"Content-Type": "application/json"},
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (e) {
      showError("The box does not answer: " + (e.message || e));
      return null;
    }
    let data = null;
    try { data = await res.json(); } catch (e) { /* no JSON body */ }
    if (!res.ok) {
      const why = (data && data.error) || ("HTTP " + res.status);
      if (res.status === 409 && /^double tap/.test(why)) showNote(said(why));  // another tab's
      else if (res.status === 401) {
        setPaired(false);
        showError(/paired/i.test(why) ? why.charAt(0).toUpperCase() + why.slice(1)
                                      : "This phone is not paired: " + why);
      }
      else showError(why);
      return null;
    }
    return data || {};
  }
  const get = (path) => call("GET", path);
  // A double tap counts once: a control stays disabled this long after its answer (the box
  // refuses the same tap from this phone within it too: 409 "double tap: ignored"). UP and
  // DOWN repeat by nature (scrolling a list): they are free again once answered.
  const DOUBLE_TAP_MS = 700;
  const REPEATS = new Set(["UP", "DOWN", "HOLD UP", "HOLD DOWN"]);
  const holds = new Map();  // a request being answered or held -> its controls (disabled)
  // One tap, one action (shared/DESIGN.md "Table invariants"): a tap that sends a change
  // holds every tap on the board and the controls (body[data-hold], table.css: no pointer
  // events) until DOUBLE_TAP_MS after its answer. The redraw the change brings (a form
  // emptied, a note gone, a question's form added) moves what is under the finger; a double
  // tap's second tap then lands on nothing instead of on another button (issue 34, item 1).
  // Taps while nothing is being sent (filling a form in) are never held.
  let tapHolds = 0;
  function holdTaps() { tapHolds++; document.body.dataset.hold = "tap"; }
  function releaseTaps() {
    tapHolds = Math.max(0, tapHolds - 1);
    if (!tapHolds) delete document.body.dataset.hold;
  }
  function holdTapsFor(ms) { holdTaps(); setTimeout(releaseTaps, ms); }
  function holdKey(path, body) { return path + " " + JSON.stringify(body || {}); }
  function said(text) { return text.charAt(0).toUpperCase() + text.slice(1); }
  async function post(path, body, control, quiet) {
    // `control` (a button or a form) is disabled until the answer, and the snapshot with the
    // change, are in, and for DOUBLE_TAP_MS after the answer: a second tap cannot send the
    // same change twice. What the tap did (the answer's `did`) is said under the buttons.
    const els = !control ? [] : control.tagName === "FORM"
      ? [...control.querySelectorAll("button, input, select, textarea")].filter((e) => !e.disabled)
      : control.disabled ? null : [control];
    if (els === null) return null;  // already waiting for its answer
    for (const e of els) { e.disabled = true; busy.add(e); }
    // The snapshot with the change redraws the game's own buttons: the new one of this tap
    // (quick(), the same request) joins `held` and stays disabled as the one tapped.
    const key = holdKey(path, body);
    const held = new Set(els);
    holds.set(key, held);
    const repeats = !!(body && REPEATS.has(body.button));
    if (!repeats) holdTaps();
    let hold = 0;
    try {
      const r = await call("POST", path, {...(body || {}), seq: shownSeq()});
      const answered = Date.now();
      if (r && typeof r.seq === "number") await rendered(r.seq);
      if (r && r.did && !quiet) showNote(said(r.did));
      // Refused too: a double tap's second tap would only send the refused change again.
      if (!repeats) hold = DOUBLE_TAP_MS - (Date.now() - answered);
      return r;
    } finally {
      const release = () => {
        if (!repeats) releaseTaps();
        if (holds.get(key) === held) holds.delete(key);
        for (const e of held) { e.disabled = false; busy.delete(e); }
        if (Table.snapshot) onSnapshot(Table.snapshot);  // undo/redo: as the game allows
      };
      if (hold > 0) setTimeout(release, hold); else release();
    }
  }

  async function send(event, control) {
    const r = await post("/api/action", {event}, control);
    if (r) Table.refreshFrame();
    return r;
  }

  // --- small form helpers -------------------------------------------------------------------
  // Every input has a real <label> in words (a screen reader says "Points, Ann", an error
  // line names it the same way), never its key. A field that is the players' input starts
  // empty: a select on its "choose" line, a number with nothing in it.
  const CHOOSE = "choose…";
  let uid = 0;
  function newId(name) { return "f" + (++uid) + "-" + name; }
  function select(name, options, value, empty) {
    // `empty`: the select starts on an empty "choose" line (the players' input).
    const opts = options.map((o) => {
      const [v, label] = Array.isArray(o) ? o : [o, o];
      const drawn = !empty && String(v) === String(value);  // defaultSelected: as drawn (typedIn)
      return h("option", {value: String(v), text: String(label), defaultSelected: drawn, selected: drawn});
    });
    return h("select", {name, id: newId(name)},
             empty ? [h("option", {value: "", text: CHOOSE, defaultSelected: true, selected: true}), opts] : opts);
  }
  function labelled(el, text, hidden) {
    // A <label> for `el`: shown before it, or (`hidden`) for screen readers only, where the
    // words on screen already say it (the form's title, a column's head and the row's name).
    return [h("label", {for: el.id, class: hidden ? "sr" : "", text}), el];
  }
  function beside(el, text, cls) {
    // A label shown before `el` on one line. Not wrapped round the select: a screen reader
    // would read the chosen option into its name ("Color red").
    return h("div", {class: "field " + (cls || "")}, h("label", {for: el.id, text}), " ", el);
  }
  function seatOptions(s, filter) {
    return s.players.map((n, k) => [k, n]).filter(([k]) => !filter || filter(k));
  }
  function number(name, min, max) {
    // A whole number the players type: it starts empty (the form checks it, in words).
    return h("input", {type: "number", name, id: newId(name), min: String(min), max: String(max),
                       inputMode: "numeric"});
  }
  function capital(t) { return String(t).charAt(0).toUpperCase() + String(t).slice(1); }
  function button(label, onclick, cls) {
    const b = h("button", {type: "button", class: cls || "", text: label});
    b.addEventListener("click", onclick);
    return b;
  }
  // A button that shows a sign ("↑", "✕", "+ Ann") is named in words for screen readers.
  function spoken(b, words) {
    b.setAttribute("aria-label", words);
    return b;
  }
  function quick(label, event) {
    const b = button(label, () => send(event, b));
    b.dataset.move = event.type;  // what NEXT may take the player to (nextButton)
    const held = holds.get(holdKey("/api/action", {event}));  // drawn while its tap holds
    if (held) { b.disabled = true; held.add(b); busy.add(b); }
    return b;
  }
  // A form's own check failed: say what to fix in plain words and put the cursor there.
  class FieldError extends Error {
    constructor(input, text) { super(text); this.input = input; }
  }
  function form(title, kids, submitLabel, onsubmit, name) {
    // noValidate: the form's own checks say what to fix in the error line, by the field's
    // label (the browser's bubble would say "Please fill out this field" of no field named).
    const f = h("form", {"data-form": name || title, noValidate: true}, h("h3", {text: title}), kids,
                h("button", {type: "submit", text: submitLabel}));
    f.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      for (const el of f.querySelectorAll("[aria-invalid]")) el.removeAttribute("aria-invalid");
      let event;
      try { event = onsubmit(f); } catch (e) { fieldFailed(e); return; }
      if (event) {
        const ok = await send(event, f);
        if (ok) committed(f);
      }
    });
    return f;
  }
  function committed(f) {
    // A form's change is in: it shows again as it first did (the players' inputs empty), so
    // a second tap cannot send the same change again; what is typed in the others stays.
    actionsKey = "";
    if (Table.snapshot) renderActions(Table.snapshot, f.dataset.form);
  }
  function field(f, name) { return f.elements[name]; }
  function chosen(f, name, message) {
    // A select the players must choose: its seat, or a FieldError saying so.
    const sel = field(f, name);
    if (sel.value === "") throw new FieldError(sel, message);
    return parseInt(sel.value, 10);
  }
  function wholeNumber(input, who, d) {
    // One player's number (a per-seat or a number cell): empty, not whole or out of range
    // is said with the declared templates ({name}, {what}, {low}, {high}, {value}).
    // A minus sign only where the field goes below 0 (a round score of -5).
    const v = input.value.trim();
    const vars = {name: who, what: d.what, label: d.label, low: d.low, high: d.high, value: v};
    if (!(d.low < 0 ? /^-?\d+$/ : /^\d+$/).test(v)) throw new FieldError(input, say(d.missing, vars));
    const n = parseInt(v, 10);
    if (n < d.low || n > d.high) throw new FieldError(input, say(d.outside, vars));
    return n;
  }
  function confirmButton(label, event) {
    // Two taps instead of a dialog: the first arms the button, the second sends. The second
    // tap of a double tap is not a second thought: within DOUBLE_TAP_MS of arming it is
    // ignored (a double tap on "End the game" ended the game).
    const b = button(label, async () => {
      if (b.dataset.armed) {
        if (Date.now() - Number(b.dataset.armed) < DOUBLE_TAP_MS) return;
        delete b.dataset.armed; b.textContent = label; await send(event, b); return;
      }
      b.dataset.armed = String(Date.now());
      b.textContent = "Tap again: " + label;
      setTimeout(() => { delete b.dataset.armed; b.textContent = label; }, 4000);
    });
    return b;
  }
  function active(s, k) { return !((s.state || {}).eliminated || []).includes(k); }
  function perSeat(s, d) {
    // A number per player: the row shows the name; its label reads "Points, Ann".
    return h("div", {class: "seat-nums"}, s.players.map((n, k) => {
      const input = number(d.name + k, d.low, d.high);
      return [h("label", {for: input.id}, h("span", {class: "sr", text: capital(d.what) + ", "}), n), input];
    }));
  }

  // --- each kind's own actions --------------------------------------------------------------
  // The snapshot's `actions`: the kind's own forms and quick buttons, declared in its package
  // and worked out by the box for the game as it is (companion/web/kinds.py is the vocabulary).
  // Nothing here knows a kind: a kind installed as a plugin gets its forms from its declarations.
  function say(template, vars) {
    // A declared message: {name}, {least}, {value} ... filled in.
    return String(template || "").replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m));
  }
  function optionLabel(o) { return o.label !== undefined ? o.label : String(o.value); }
  function optionPairs(opts) { return (opts || []).map((o) => [o.value, optionLabel(o)]); }
  function optionOf(opts, text) { return (opts || []).find((o) => String(o.value) === text); }
  function sent(o, text) { return !o ? text : o.send !== undefined ? o.send : o.value; }
  function filled(v) {
    return v !== undefined && v !== null && v !== "" && v !== false && !(Array.isArray(v) && !v.length);
  }
  function setPath(event, path, v) {
    // "dice.colors" and "players.0" build nested objects and lists.
    const parts = path.split(".");
    let o = event;
    parts.slice(0, -1).forEach((p, i) => {
      if (o[p] === undefined) o[p] = /^\d+$/.test(parts[i + 1]) ? [] : {};
      o = o[p];
    });
    o[parts[parts.length - 1]] = v;
  }
  function named(f, name) { return f.querySelectorAll("input[name=\"" + CSS.escape(name) + "\"]"); }
  function choiceOptions(f, d) {
    return d.follows ? (d.options_by || {})[field(f, d.follows).value] || [] : d.options;
  }

  function isInput(d) { return d.default === undefined || d.default === null; }
  function fieldEl(s, d, later, title) {
    // One declared field as elements; `later` collects what needs the whole form (follows);
    // `title` (the form's) names a choice that has no label of its own.
    switch (d.kind) {
      case "note": return h("p", {class: "note", text: d.text});
      case "row": return h("div", {class: "row"}, d.fields.map((x) => fieldEl(s, x, later, title)));
      case "choice": {
        // No default: the players' input, on its "choose" line until they choose.
        const sel = select(d.name, optionPairs(d.options), d.default, isInput(d));
        if (d.follows) {
          later.push((f) => field(f, d.follows).addEventListener("change", () => {
            sel.replaceChildren(...(isInput(d) ? [h("option", {value: "", text: CHOOSE})] : []),
              ...choiceOptions(f, d).map((o) => h("option", {value: String(o.value), text: String(optionLabel(o))})));
          }));
        }
        const el = d.label ? beside(sel, d.label) : labelled(sel, title, true);
        if (!d.options.some((o) => o.note)) return el;
        const note = h("p", {class: "note option-note", "aria-live": "polite"});
        const sayNote = () => { note.textContent = (optionOf(d.options, sel.value) || {}).note || ""; };
        sel.addEventListener("change", sayNote);
        sayNote();
        return [el, note];
      }
      case "many":
        return h("fieldset", {}, h("legend", {text: d.legend}),
          d.options.length ? d.options.map((o) => h("label", {class: "inline"},
            h("input", {type: "checkbox", name: d.name, value: String(o.value)}), optionLabel(o)))
            : h("p", {class: "note", text: d.empty}));
      case "radio":
        return h("fieldset", {}, h("legend", {text: d.legend}), d.options.map((o) =>
          h("label", {class: "inline"}, h("input", {type: "radio", name: d.name, value: String(o.value)}),
            optionLabel(o))));
      case "tick":
        return h("label", {class: "inline"}, h("input", {type: "checkbox", name: d.name}), d.label);
      case "per-seat": return perSeat(s, d);
      case "whole": return beside(number(d.name, d.low, d.high), d.label);
      case "seat-rows":
        return [
          h("div", {class: "hand"}, d.heads.map((t) => h("b", {text: t}))),
          // A row per player: the name on screen, and each cell's label "Sets, Ann" for
          // screen readers (the heads above say it to the eye).
          s.players.map((n, k) => h("div", {class: "hand"},
            h("span", {class: "hand-name", text: d.labels[k]}),
            d.cells.map((c) => labelled(c.kind === "ints"
              ? h("input", {id: newId(c.name + k), name: c.name + k, placeholder: (c.placeholders || [])[k],
                            inputMode: "text"})
              : number(c.name + k, c.low, c.high), capital(c.what) + ", " + n, true)))),
        ];
      default:
        return h("p", {class: "note", text: "(this box's page cannot show a " + d.kind + " field)"});
    }
  }

  function ints(input, who, c) {
    // Whole numbers typed as "3 3 2" (or with commas or +).
    const text = input.value;
    const parts = text.trim() ? text.trim().split(/[\s,+]+/) : [];
    const nums = parts.map((p) => Number(p));
    if (nums.some((n) => !Number.isInteger(n) || n < 0)) throw new FieldError(input, say(c.bad, {name: who}));
    const small = nums.find((n) => n < (c.least || 0));
    if (small !== undefined) {
      throw new FieldError(input, say(c.small, {name: who, least: c.least || 0, value: small}));
    }
    return nums;
  }

  function fieldValue(s, f, d) {
    // A field's value for the event (undefined: left out); a FieldError names what to fix.
    switch (d.kind) {
      case "choice": {
        const sel = field(f, d.name);
        if (sel.value === "" && isInput(d)) {
          if (d.optional) return undefined;  // left out while nobody chose (the form's one_of)
          throw new FieldError(sel, say(d.missing, {label: d.label || formTitle(f)}));
        }
        return sent(optionOf(choiceOptions(f, d), sel.value), sel.value);
      }
      case "many": return [...named(f, d.name)].filter((i) => i.checked).map((i) => sent(optionOf(d.options, i.value), i.value));
      case "radio": {
        const t = [...named(f, d.name)].find((i) => i.checked);
        if (t) return sent(optionOf(d.options, t.value), t.value);
        if (d.required) throw new FieldError(named(f, d.name)[0], d.required);
        return undefined;
      }
      case "tick": return field(f, d.name).checked ? true : undefined;
      case "whole": return wholeNumber(field(f, d.name), "", d);
      case "per-seat": {
        const vals = s.players.map((n, k) => wholeNumber(field(f, d.name + k), n, d));
        if (d.need !== undefined && !vals.includes(d.need)) {
          throw new FieldError(field(f, d.name + "0"), say(d.need_message, {value: d.need}));
        }
        return vals;
      }
      case "seat-rows": {
        // Each row's lists first, then the count (the seller's sets), then the numbers:
        // the words about the sets come before "enter the unmatched pigs".
        const rows = s.players.map((n, k) => {
          const row = {};
          for (const c of d.cells) if (c.kind === "ints") row[c.key] = ints(field(f, c.name + k), n, c);
          return row;
        });
        const need = d.count;
        const cell = need && d.cells.find((c) => c.name === need.cell);
        if (cell && rows[need.seat][cell.key].length < need.least) {
          throw new FieldError(field(f, need.cell + need.seat), need.message);
        }
        s.players.forEach((n, k) => {
          for (const c of d.cells) if (c.kind === "number") rows[k][c.key] = wholeNumber(field(f, c.name + k), n, c);
        });
        return rows;
      }
      default: return undefined;
    }
  }

  function formTitle(f) { const t = f.querySelector("h3"); return t ? t.textContent : ""; }
  function flatFields(list) {
    return (list || []).flatMap((d) => (d.kind === "row" ? flatFields(d.fields) : [d]));
  }
  function formEvent(s, f, d, base) {
    // The button's event with the form's fields in it; `only_if` leaves a field out unless
    // the field it names is filled in (ticked, chosen).
    const event = JSON.parse(JSON.stringify(base));
    const values = {};
    for (const x of flatFields(d.fields)) {
      if (x.kind === "note" || (x.only_if && !filled(values[x.only_if]))) continue;
      const v = fieldValue(s, f, x);
      values[x.name || x.key] = v;
      if (v !== undefined) setPath(event, x.key || x.name, v);
    }
    if (d.one_of && !Object.values(values).some((v) => filled(v) || v === false)) {
      throw new FieldError(f.querySelector("select, input"), d.one_of);
    }
    return event;
  }
  function fieldFailed(e) {
    // A form's own check failed: say what to fix and put the cursor there.
    if (!(e instanceof FieldError)) throw e;
    showError(e.message);
    if (e.input) { e.input.setAttribute("aria-invalid", "true"); e.input.focus(); }
  }

  function chipButton(b, el) {
    if (b.color) el.classList.add("chip", "c-" + String(b.color).toLowerCase().replace(/[^a-z]/g, ""));
    return el;
  }
  function kindAction(s, d) {
    if (d.kind === "quick") {
      return [d.title ? h("h3", {text: d.title}) : null,
              h("div", {class: "quick"}, d.buttons.map((b) => chipButton(b, quick(b.label, b.event))))];
    }
    if (d.kind !== "form") return null;
    const later = [];
    const kids = (d.fields || []).map((x) => fieldEl(s, x, later, d.title));
    let f;
    if (d.submit) {
      f = form(d.title, kids, d.submit.label, (el) => formEvent(s, el, d, d.submit.event), d.name);
      f.dataset.move = d.submit.event.type;
    } else {
      // Several buttons, each its own event with the same fields.
      f = h("form", {"data-form": d.name, noValidate: true}, h("h3", {text: d.title}), kids);
      f.addEventListener("submit", (ev) => ev.preventDefault());
      f.append(h("div", {class: "quick"}, (d.buttons || []).map((b) => {
        const el = chipButton(b, button(b.label, async () => {
          for (const x of f.querySelectorAll("[aria-invalid]")) x.removeAttribute("aria-invalid");
          let event;
          try { event = formEvent(s, f, d, b.event); } catch (e) { fieldFailed(e); return; }
          if (await send(event, el)) committed(f);
        }));
        el.dataset.move = b.event.type;
        return el;
      })));
    }
    for (const fn of later) fn(f);
    if (d.ask) f.classList.add("ask");
    return f;
  }

  function common(s) {
    const st = s.state;
    const live = (k) => active(s, k);
    const die = (name, label, faces) => beside(select(name, [["", "—"]].concat(faces), ""), label, "inline");
    // The turn moves this game's panel menu offers (snapshot.turns), no more.
    const turns = s.turns || [];
    const moves = [["skip", "Skip"], ["double_skip", "Double skip"], ["reverse", "Reverse"],
                   ["reverse_skip", "Reverse + skip"]].filter(([t]) => turns.includes(t));
    const used = diceOf(s);
    return [
      h("h3", {text: "Turn"}),
      h("div", {class: "quick"}, nextButton(),
        ...moves.map(([t, label]) => quick(label, {type: t}))),
      turns.includes("skip_to") ? form("Skip to",
        labelled(select("player", seatOptions(s, (k) => live(k) && k !== st.current), "", true), "Skip to", true),
        "Skip to", (f) => ({type: "skip_to", player: chosen(f, "player", "Skip to: choose one")}), "skip_to") : null,
      // Who goes first is the start's question (the panel asks it when a game starts): only
      // before the first turn ends; the box refuses it after (kinds.first_open).
      // Nobody is chosen for the players (issue 34, item 9: after Play again an untouched
      // form recorded, and spoke, a first player nobody picked).
      !st.turns ? form("Who goes first",
        labelled(select("player", seatOptions(s, live), "", true), "Goes first", true), "Goes first",
        (f) => ({type: "first", player: chosen(f, "player", "Who goes first: choose one")}), "first") : null,
      used.length ? form("Record a roll (dice rolled by hand)",
        [h("div", {class: "row"}, used.map(([k, label, faces]) => die(k, label, faces)))],
        "Record the roll", (f) => {
          const dice = {};
          for (const [k] of used) {
            const v = field(f, k).value;
            if (v) dice[k] = k.startsWith("d") ? parseInt(v, 10) : v;
          }
          if (!Object.keys(dice).length) throw new FieldError(field(f, used[0][0]), "Pick at least one die");
          return {type: "roll", dice};
        }, "roll") : null,
      h("div", {class: "quick"}, confirmButton("End the game", {type: "end"})),
    ];
  }

  // --- what NEXT means (docs/web.md) ----------------------------------------------------------
  function nextButton() {
    // Where the game's rules need a choice before the turn ends (the snapshot's `next`:
    // Penny Badger's pass or claim), the box's NEXT asks it, and so does this one: it
    // sends nothing, says so, and takes the player to the controls that answer it.
    const b = quick("Next player", {type: "next"});
    b.addEventListener("click", (ev) => {
      const needs = Table.snapshot && Table.snapshot.next;
      if (!needs) return;
      ev.stopImmediatePropagation();
      offerChoice(needs);
    }, true);
    return b;
  }
  function offerChoice(needs) {
    const box = document.getElementById("actions");
    // In the order the rules name them (Drop Rainbow: bank before draw), as the box offers.
    const answers = needs.moves.flatMap((m) => [...box.querySelectorAll("[data-move=" + CSS.escape(m) + "]")]);
    showNote(needs.words);
    if (!answers.length) return;
    // The page moves to the answers: nothing under the finger may take a double tap's
    // second tap meanwhile (one tap, one action), so taps are held for the double-tap
    // window (as a jump to a form holds them), and the first answer has the focus after it.
    holdTapsFor(DOUBLE_TAP_MS);
    answers[0].scrollIntoView({block: "center"});
    setTimeout(() => {
      const first = answers[0].matches("form") ? answers[0].querySelector("select, input, button") : answers[0];
      if (first && first.isConnected) first.focus({preventScroll: true, focusVisible: true});
    }, DOUBLE_TAP_MS);
  }

  function renderActions(s, sent) {
    // `sent`: the form whose change just went in (drawn empty again).
    const box = document.getElementById("actions");
    const st = s.state || {};
    // Drawn again only when what it shows changes (a form being filled in stays as it is):
    // the turn, the seats, the question, and the kind's own forms as the box worked them out,
    // but for their defaults (one taken from the state, as the last color, redraws nothing).
    const key = JSON.stringify([s.game_id, s.game, s.players, st.over, st.current, !st.turns,
                                st.eliminated, s.ask, s.actions, s.unfinished, s.left, s.dice],
                               (k, v) => (k === "default" ? undefined : v));
    if (key === actionsKey) return;
    actionsKey = key;
    const kept = typedIn(box, sent);
    if (!s.game) {
      box.replaceChildren(...startView(s).filter(Boolean));
    } else if (st.over) {
      box.replaceChildren(h("h2", {text: "Game over"}), playAgainButton(s),
                          h("p", {class: "note", text: "Or undo, or start another game below."}));
    } else {
      const own = (s.actions || []).map((d) => kindAction(s, d));
      box.replaceChildren(...[h("h2", {text: (s.title || s.game) + ": " + s.players[st.current] + "'s turn"}),
                              own, common(s)].flat(Infinity).filter(Boolean));
    }
    putBack(box, kept, kept.game === s.game_id);
    renderMain(s);
  }

  // --- the game's main actions, at hand under NEXT (issue 34, item 7) -----------------------
  // The kind's actions it declares main (kinds.py Form.main, Quick.main) and a question's
  // form, as the snapshot has them: a quick button as itself, a form as a button that brings
  // it on screen (its fields may be a row per player: too tall to sit up here). The whole
  // forms stay in the actions panel below.
  function renderMain(s) {
    const st = s.state || {};
    const main = document.getElementById("main-actions");
    if (s.game && st.over && s.picks_first) { main.replaceChildren(againFirst(s)); return; }
    if (!s.game || st.over) { main.replaceChildren(); return; }
    main.replaceChildren(...(s.actions || []).filter((d) => d.main || d.ask).map((d) => {
      if (d.kind === "quick") {
        return h("div", {class: "main-quick" + (d.buttons.some((b) => b.color) ? " chips-row" : "")},
                 d.buttons.map((b) => chipButton(b, quick(b.label, b.event))));
      }
      return button(d.short || d.title, () => toForm(d.name), "jump" + (d.ask ? " ask" : ""));
    }));
  }
  function toForm(name) {
    const f = document.querySelector("#actions form[data-form=\"" + CSS.escape(name) + "\"]");
    if (!f) return;
    holdTapsFor(DOUBLE_TAP_MS);  // the page scrolls under the finger: no second tap lands
    f.scrollIntoView({block: "start"});
    const title = f.querySelector("h3");
    title.tabIndex = -1;  // a screen reader goes on from the form's title
    title.focus({preventScroll: true});
  }

  // On /control whose turn it is is smaller than on the live page (table.js fits it to the
  // width, up to 16% of the height): NEXT and the main actions come high on the screen.
  const WHO_MAX_PX = 56;
  function fitWho() {
    const who = document.getElementById("who");
    const size = parseFloat(who.style.fontSize) || WHO_MAX_PX;
    if (size > WHO_MAX_PX) who.style.fontSize = WHO_MAX_PX + "px";  // smaller still fits
  }
  if (onControlPage) {
    Table.onRender(fitWho);
    let fitTimer = 0;  // after table.js's own refit on a resize (100 ms)
    window.addEventListener("resize", () => { clearTimeout(fitTimer); fitTimer = setTimeout(fitWho, 150); });
  }

  // --- what a player typed, kept across snapshots (issue 34, item 8) ------------------------
  // Another phone's move, or the box's NEXT, redraws the forms: what was typed (Chaos round
  // points for two players of five) is put back into the same fields of the same form. Where
  // the move made it meaningless, the form says so in words: a form the game no longer
  // offers, a choice no longer offered, a form whose title changed (it is another's turn).
  function typedIn(box, sent) {
    const forms = [];
    const focus = document.activeElement && box.contains(document.activeElement) &&
      document.activeElement.form ? document.activeElement : null;
    for (const f of box.querySelectorAll("form[data-form]")) {
      if (f.dataset.form === sent) continue;
      const fields = [];
      // What the player changed: a field as it was drawn (a kind's default) is drawn anew.
      for (const el of f.elements) {
        if (!el.name || el.tagName === "BUTTON") continue;
        if (el.type === "checkbox" || el.type === "radio") {
          if (el.checked && !el.defaultChecked) fields.push({name: el.name, value: el.value, tick: true});
        } else if (el.value !== (el.tagName === "SELECT" ? drawnValue(el) : el.defaultValue)) {
          const text = el.tagName === "SELECT" ? el.selectedOptions[0].text : el.value;
          fields.push({name: el.name, value: el.value, text, label: labelOf(el)});
        }
      }
      if (fields.length) forms.push({name: f.dataset.form, title: formTitle(f), fields});
    }
    const at = focus ? {form: focus.form.dataset.form, name: focus.name} : null;
    return {game: shownGame, forms, focus: at};
  }
  let shownGame = null;  // the game the forms on the page were drawn for
  function drawnValue(sel) {
    const o = [...sel.options].find((x) => x.defaultSelected) || sel.options[0];
    return o ? o.value : "";
  }
  function labelOf(el) {
    const l = el.labels && el.labels[0];
    return l ? l.textContent.trim() : "";
  }
  function putBack(box, kept, sameGame) {
    shownGame = Table.snapshot ? Table.snapshot.game_id : null;
    if (!kept.forms.length) return;
    const gone = [];
    for (const t of kept.forms) {
      const f = sameGame ? box.querySelector("form[data-form=\"" + CSS.escape(t.name) + "\"]") : null;
      if (!f) { gone.push(t.title); continue; }
      const said = [];
      if (formTitle(f) !== t.title) said.push("the form now reads \u201c" + formTitle(f) + "\u201d; check what you typed");
      for (const x of t.fields) {  // in the form's order: a select another one follows comes first
        if (x.tick) {
          const tick = [...f.querySelectorAll("input[name=\"" + CSS.escape(x.name) + "\"]")]
            .find((i) => i.value === x.value);
          if (tick) { tick.checked = true; tick.dispatchEvent(new Event("change", {bubbles: true})); }
          continue;
        }
        const el = f.elements[x.name];
        if (!el || el instanceof RadioNodeList) continue;
        if (el.tagName === "SELECT" && ![...el.options].some((o) => o.value === x.value)) {
          said.push((x.label || t.title) + ": " + x.text + " is no longer a choice; choose again");
          continue;
        }
        el.value = x.value;
        if (el.tagName === "SELECT") el.dispatchEvent(new Event("change", {bubbles: true}));
      }
      if (said.length) {
        f.querySelector("h3").after(h("p", {class: "note moved-on", role: "status",
          text: "The game moved on: " + said.join("; ") + "."}));
      }
      if (kept.focus && kept.focus.form === t.name && f.elements[kept.focus.name] &&
          !(f.elements[kept.focus.name] instanceof RadioNodeList)) {
        f.elements[kept.focus.name].focus({preventScroll: true});
      }
    }
    if (gone.length) {
      const where = box.querySelector("h2");
      const note = h("p", {class: "note moved-on", role: "status",
        text: "What you typed in " + gone.join(", ") + " was cleared: " +
              (sameGame ? "the game moved on and no longer asks for it." : "another game is on the table.")});
      if (where) where.after(note); else box.prepend(note);
    }
  }

  // --- the start view: no game on the table -------------------------------------------------
  const RESUME_SHOWN = 8;  // more are on /games
  function startView(s) {
    // As the panel's start menu offers them (its Resume list, newest move first): each
    // unfinished game with a Resume button, as /games has; or a new game, below.
    const games = s.unfinished || [];
    if (!games.length) {
      return [h("h2", {text: "No game on the table"}),
              h("p", {class: "note", text: "No unfinished games: start a new one below."})];
    }
    return [
      h("h2", {text: "No game on the table"}),
      h("p", {class: "note", text: games.length === 1 ? "1 unfinished game: resume it, or start a new one below."
        : games.length + " unfinished games, newest move first: resume one, or start a new one below."}),
      h("ol", {class: "resume-list"}, games.slice(0, RESUME_SHOWN).map((g) => h("li", {},
        h("div", {class: "resume-what"}, h("b", {text: g.title + " #" + g.game_id}),
          h("span", {class: "note", text: " · last move " + g.when})),
        h("div", {class: "note", text: g.players.join(", ")}),
        resumeButton(s, g)))),
      games.length > RESUME_SHOWN
        ? h("p", {class: "note"}, (games.length - RESUME_SHOWN) + " more on ", h("a", {href: "/games", text: "Games"}))
        : null,
    ];
  }
  function resumeButton(s, g) {
    // The game left for the start menu (`left`) is set aside by resuming another: it stays
    // unfinished and resumable (here, on the box and on /games), so nothing is asked.
    const b = button("Resume " + g.title + " #" + g.game_id, async () => {
      const body = {game: g.game_id};
      const left = Table.snapshot && Table.snapshot.left;
      if (left && left.game_id !== g.game_id) body.replaces = left.game_id;
      const r = await post("/api/resume", body, b);
      if (r) { Table.refreshFrame(); window.scrollTo({top: 0}); }
    }, "go resume");
    b.dataset.game = String(g.game_id);
    return b;
  }

  // --- play again ---------------------------------------------------------------------------
  function playAgainButton(s) {
    // One tap: the same game with the same players and house rules (the box moves the first
    // player one seat on). The box refuses it unless the game is over.
    return button(againWords(s), (ev) => playAgain(ev.currentTarget), "go play-again");
  }
  function againWords(s) { return "Play again: " + (s.title || s.game) + " with " + s.players.join(", "); }
  async function playAgain(b) {
    // Where the game says the group picks who goes first (the snapshot's `picks_first`: a
    // design's "the group picks"), it is asked here first, as New game asks it: the choice
    // under the Play again at the top (againFirst). Else one tap, straight to the game.
    const s = Table.snapshot;
    const body = {};
    if (s && s.picks_first) {
      const sel = document.querySelector("#main-actions select[name=again-first]");
      if (!sel || sel.value === "") {
        showError("Who goes first? The group picks: choose who, then Play again");
        if (sel) { sel.setAttribute("aria-invalid", "true"); sel.focus(); }
        return;
      }
      body.first = parseInt(sel.value, 10);
    }
    const r = await post("/api/play-again", body, b);
    if (r) { Table.refreshFrame(); window.scrollTo({top: 0}); }
  }
  function againFirst(s) {
    // Who goes first in the game played again: nobody is chosen for the players (the box
    // refuses a Play again without it where the group picks).
    const sel = select("again-first", seatOptions(s), "", true);
    sel.addEventListener("change", () => sel.removeAttribute("aria-invalid"));
    return h("div", {class: "again-first"}, beside(sel, "Who goes first in the next game"));
  }
  const againTop = document.getElementById("again");
  againTop.addEventListener("click", () => playAgain(againTop));
  document.getElementById("to-new-game").addEventListener("click", () => {
    // What the box offers after a game besides Play again: another game (New game, below).
    const ng = document.getElementById("new-game");
    ng.open = true;
    holdTapsFor(DOUBLE_TAP_MS);  // the page moves under the finger: no second tap lands
    ng.scrollIntoView({block: "start"});
    ngKind.focus({preventScroll: true});
  });
  function renderDrive(s) {
    // Once the game is over, NEXT (which the end screen ignores) makes way for what the box
    // offers after a game: Play again and New game. Undo stays: an undone end goes back
    // into the game. Redo shows beside Undo while there is something to redo.
    const over = !!(s.game && (s.state || {}).over);
    document.querySelector("#drive button.press[data-button=NEXT]").hidden = over;
    againTop.hidden = !over;
    if (over) againTop.setAttribute("aria-label", againWords(s));
    document.getElementById("to-new-game").hidden = !over;
    document.getElementById("redo").hidden = !s.can_redo && !busy.has(document.getElementById("redo"));
  }

  // --- new game -----------------------------------------------------------------------------
  const ngKind = document.getElementById("ng-kind");
  const ngPlayers = document.getElementById("ng-players");
  const ngFirst = document.getElementById("ng-first");
  const ngRules = document.getElementById("ng-rules");

  function kindInfo() { return (kinds || []).find((k) => k.kind === ngKind.value); }
  function typedNames() {
    return [...ngPlayers.querySelectorAll("input")].map((i) => i.value.trim());
  }
  function refreshFirst() {
    const keep = ngFirst.value;
    ngFirst.replaceChildren(...typedNames().map((n, k) =>
      h("option", {value: String(k), text: n || "player " + (k + 1), selected: String(k) === keep})));
    hideSeated();
  }
  function hideSeated() {
    // The roster's "+ Ann" offers only the names not in the players' list yet (a seated
    // name's button did nothing when tapped).
    const seated = new Set(typedNames().map((n) => n.toLowerCase()));
    for (const b of document.querySelectorAll("#ng-roster button")) b.hidden = seated.has(b.dataset.name.toLowerCase());
  }
  function addPlayer(name) {
    const info = kindInfo();
    if (info && ngPlayers.children.length >= info.max_players) {
      showError((info.title || info.kind) + " takes at most " + info.max_players + " players");
      return;
    }
    const input = h("input", {value: name || "", maxLength: 16, list: "roster-names",
                              "aria-label": "Player " + (ngPlayers.children.length + 1), required: true});
    input.addEventListener("input", refreshFirst);
    const li = h("li", {}, h("div", {class: "row"}, input,
      spoken(button("↑", () => { if (li.previousElementSibling) li.previousElementSibling.before(li); refreshFirst(); }),
            "Move this player up"),
      spoken(button("✕", () => { li.remove(); refreshFirst(); }), "Remove this player")));
    ngPlayers.append(li);
    refreshFirst();
    return input;
  }
  function ruleField(key, value, label) {
    const id = "rule-" + key;
    let input;
    if (Array.isArray(value)) {
      input = h("input", {id, name: key, value: value.join(", "), "data-kind": "list"});
    } else if (typeof value === "number" || value === null) {
      input = h("input", {id, name: key, value: value === null ? "" : String(value), inputMode: "numeric",
                          "data-kind": "number", placeholder: value === null ? "off" : ""});
    } else if (typeof value === "boolean") {
      input = h("input", {id, name: key, type: "checkbox", checked: value, "data-kind": "bool"});
    } else {
      input = h("input", {id, name: key, value: String(value), "data-kind": "text"});
    }
    // In words, never the key (the kind's label, /api/kinds `rule_labels`).
    return h("label", {for: id}, (label || key.replace(/_/g, " ")) + " ", input);
  }
  function renderKind() {
    const info = kindInfo();
    if (!info) return;
    ngKind.style.borderLeft = info.ours && info.color ? "0.5rem solid " + info.color : "";
    document.getElementById("ng-count").textContent = info.min_players + "-" + info.max_players + " players";
    document.getElementById("ng-house").textContent = (info.house_rules || []).join("\n") || "Turns and dice.";
    const clockKeys = info.clock_rules || {};
    const entries = Object.entries(info.rules || {}).filter(([k]) => !(k in clockKeys));
    ngRules.replaceChildren(h("legend", {text: "House rules"}),
      ...(entries.length ? entries.map(([k, v]) => ruleField(k, v, (info.rule_labels || {})[k])) : [h("p", {class: "note", text: "none"})]));
    setClockForm(info.rules || {});
    while (ngPlayers.children.length < info.min_players) addPlayer("");
  }

  // The turn clock's house rules (the same for every kind: turn_limit, time_bank and
  // time_bonus, docs/clock.md): Off, a limit per turn, or a chess clock. The config's
  // [rules.KIND] may set them: the form starts as it says.
  const clockMode = () => (document.querySelector("input[name=ng-clock]:checked") || {}).value || "off";
  const ngLimit = document.getElementById("ng-limit-s");
  const ngLimitOther = document.getElementById("ng-limit-other");
  const CLOCK_NOTES = {
    off: "Each turn is still timed: the TV and the phones show it, with each player's total.",
    limit: "10 s before the end the TV turns amber and phones buzz; at the end: Time! " +
           "The game itself never changes by the clock.",
    bank: "Each player's time for the whole game; the bonus is added to it as their turn ends. " +
          "Amber with 10 s left, Time! when it runs out.",
  };
  function showClockForm() {
    const mode = clockMode();
    document.getElementById("ng-limit").hidden = mode !== "limit";
    document.getElementById("ng-bank").hidden = mode !== "bank";
    ngLimitOther.hidden = ngLimit.value !== "other";
    document.getElementById("ng-clock-note").textContent = CLOCK_NOTES[mode];
  }
  function setClockForm(rules) {
    const mode = rules.turn_limit ? "limit" : rules.time_bank ? "bank" : "off";
    document.querySelector("input[name=ng-clock][value=" + mode + "]").checked = true;
    if (rules.turn_limit) {
      const known = [...ngLimit.options].some((o) => o.value === String(rules.turn_limit));
      ngLimit.value = known ? String(rules.turn_limit) : "other";
      ngLimitOther.value = known ? "" : String(rules.turn_limit);
    }
    if (rules.time_bank) document.getElementById("ng-bank-min").value = String(rules.time_bank / 60);
    if (rules.time_bonus) document.getElementById("ng-bonus").value = String(rules.time_bonus);
    showClockForm();
  }
  for (const el of document.querySelectorAll("input[name=ng-clock]")) el.addEventListener("change", showClockForm);
  ngLimit.addEventListener("change", () => { showClockForm(); if (ngLimit.value === "other") ngLimitOther.focus(); });
  function readClock(info) {
    // The clock's house rules to send: what the form asks for, and null (off) for what the
    // config set that the form leaves off. The box checks the ranges and says what is wrong.
    const want = {turn_limit: null, time_bank: null, time_bonus: 0};
    const whole = (input, what, pattern) => {
      const v = input.value.trim();
      if (!pattern.test(v)) {
        input.setAttribute("aria-invalid", "true");
        input.focus();
        throw new Error(what + ": a number, not " + (v || "nothing"));
      }
      return Number(v.replace(",", "."));
    };
    const mode = clockMode();
    if (mode === "limit") {
      want.turn_limit = ngLimit.value === "other"
        ? whole(ngLimitOther, "Seconds a turn", /^\d+$/) : parseInt(ngLimit.value, 10);
    } else if (mode === "bank") {
      want.time_bank = Math.round(whole(document.getElementById("ng-bank-min"),
                                        "Minutes each player has", /^\d+([.,]\d+)?$/) * 60);
      want.time_bonus = whole(document.getElementById("ng-bonus"), "Bonus seconds", /^\d+$/);
    }
    const set = info.rules || {};
    const out = {};
    for (const [k, v] of Object.entries(want)) {
      if (v !== (set[k] === undefined ? (k === "time_bonus" ? 0 : null) : set[k])) out[k] = v;
    }
    return out;
  }
  function readRules() {
    const rules = {};
    for (const input of ngRules.querySelectorAll("input")) {
      const kind = input.dataset.kind;
      const v = input.value.trim();
      if (kind === "bool") rules[input.name] = input.checked;
      else if (kind === "list") rules[input.name] = v.split(",").map((x) => x.trim()).filter(Boolean);
      else if (kind === "number") {
        if (v === "" || v.toLowerCase() === "off") rules[input.name] = null;
        else if (/^-?\d+$/.test(v)) rules[input.name] = parseInt(v, 10);
        else throw new Error(input.name + ": a whole number" + (input.placeholder ? " or off" : "") + ", not " + v);
      } else rules[input.name] = v;
    }
    // Unchanged defaults need not be sent; the box fills them in.
    const info = kindInfo();
    for (const [k, v] of Object.entries(rules)) {
      if (JSON.stringify(info.rules[k]) === JSON.stringify(v)) delete rules[k];
    }
    return rules;
  }
  // Opened with no names typed yet: the players of the game on the box, in their seats (the
  // same table, most often), instead of empty lines to fill; the roster's chips stay below.
  document.getElementById("new-game").addEventListener("toggle", (ev) => {
    const s = Table.snapshot;
    if (!ev.target.open || !s || !(s.players || []).length || typedNames().some(Boolean)) return;
    const info = kindInfo();
    const names = s.players.slice(0, info ? info.max_players : s.players.length);
    const inputs = [...ngPlayers.querySelectorAll("input")];
    names.forEach((n, k) => { if (inputs[k]) inputs[k].value = n; else addPlayer(n); });
    refreshFirst();
    if (info && info.kind === s.game) setClockForm(s.rules || {});  // this game's turn clock
  });
  async function loadKinds() {
    if (kinds) return;
    kinds = await get("/api/kinds");
    if (!kinds) return;
    ngKind.replaceChildren(...kinds.map((k) => {
      // A group's own design is drawn in its colour (its title says "(ours)").
      const o = h("option", {value: k.kind, text: k.title || k.kind});
      if (k.ours && k.color) o.style.color = k.color;
      return o;
    }));
    const cur = Table.snapshot && Table.snapshot.game;
    if (cur) ngKind.value = cur;
    renderKind();
  }
  ngKind.addEventListener("change", renderKind);
  const ngGo = document.querySelector("#new-game-form button[type=submit]");
  const ngGoLabel = ngGo.textContent;
  let ngTimer = 0;
  let ngArmedAt = 0;  // when the button was armed: a tap within DOUBLE_TAP_MS of it is the same tap
  function armNewGame(title, id) {
    ngGo.dataset.armed = String(id);
    ngArmedAt = Date.now();
    // The box sets the unfinished game aside (`replaces`: parked, resumable from Games), it
    // does not end it: the button and the note say so, in the same words, and not in red.
    ngGo.textContent = "Set " + title + " #" + id + " aside and start";
    showNote(title + " #" + id + " is not finished: tap again to set it aside and start " +
             "(it can be resumed from Games)");
    clearTimeout(ngTimer);
    ngTimer = setTimeout(disarmNewGame, 8000);
  }
  function disarmNewGame() {
    clearTimeout(ngTimer);
    delete ngGo.dataset.armed;
    ngGo.textContent = ngGoLabel;
  }
  document.getElementById("ng-add").addEventListener("click", () => { const i = addPlayer(""); if (i) i.focus(); });
  document.getElementById("new-game-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const players = typedNames();
    const info = kindInfo();
    if (players.some((n) => !n)) { showError("Every player needs a name (or remove the empty line)"); return; }
    const seen = new Set();
    for (const n of players) {
      if (seen.has(n.toLowerCase())) { showError("The name " + n + " is there twice"); return; }
      seen.add(n.toLowerCase());
    }
    if (info && (players.length < info.min_players || players.length > info.max_players)) {
      showError((info.title || info.kind) + " needs " + info.min_players + "-" + info.max_players +
                " players, not " + players.length);
      return;
    }
    let rules;
    for (const el of document.querySelectorAll("#ng-clock [aria-invalid]")) el.removeAttribute("aria-invalid");
    try { rules = {...readRules(), ...readClock(info)}; } catch (e) { showError(e.message); return; }
    const body = {game: ngKind.value, players, rules, first: parseInt(ngFirst.value || "0", 10)};
    // A game in progress is set aside (parked: it can be resumed), never on one tap: the first
    // tap asks, as the button "Set Chaos #3 aside and start"; the second sends "replaces".
    // The game on the box, or the unfinished one left for the start menu (`left`).
    const s = Table.snapshot;
    const playing = s && s.game && !(s.state || {}).over;
    const open = playing ? s.game_id : (s && s.left ? s.left.game_id : null);
    if (open !== null) {
      if (String(open) !== ngGo.dataset.armed) {
        armNewGame(playing ? (s.title || s.game) : s.left.title, open);
        return;
      }
      if (Date.now() - ngArmedAt < DOUBLE_TAP_MS) return;  // a double tap's second tap
      body.replaces = open;
    }
    disarmNewGame();
    const r = await post("/api/new-game", body, ev.target);
    if (r) {
      document.getElementById("new-game").open = false;
      Table.refreshFrame();
      window.scrollTo({top: 0});
    }
  });

  // --- roster -------------------------------------------------------------------------------
  function renderRoster() {
    document.getElementById("roster-names").replaceChildren(...roster.map((n) => h("option", {value: n})));
    // The box's list fills the text box unless the user is typing in it: a reply that
    // arrives late (the roster loads when the phone is paired) never replaces their words.
    const text = document.getElementById("roster-text");
    if (!text.dataset.edited) text.value = roster.join("\n");
    document.getElementById("ng-roster").replaceChildren(...roster.map((n) => {
      const b = spoken(button("+ " + n, () => {
        if (typedNames().some((t) => t.toLowerCase() === n.toLowerCase())) return;
        const empty = [...ngPlayers.querySelectorAll("input")].find((i) => !i.value.trim());
        if (empty) { empty.value = n; refreshFirst(); } else addPlayer(n);
      }), "Add " + n);
      b.dataset.name = n;
      return b;
    }));
    hideSeated();
  }
  async function loadRoster() {
    const r = await get("/api/roster");
    if (r) { roster = r.names || []; renderRoster(); }
  }
  document.getElementById("roster-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const names = document.getElementById("roster-text").value.split("\n").map((n) => n.trim()).filter(Boolean);
    const seen = new Set();
    for (const n of names) {
      if (seen.has(n.toLowerCase())) { showError("The roster has " + n + " twice (names ignore case)"); return; }
      seen.add(n.toLowerCase());
    }
    const r = await post("/api/roster", {names}, ev.target);
    if (r) {
      roster = r.names || names;
      delete document.getElementById("roster-text").dataset.edited;
      renderRoster();
    }
  });
  document.getElementById("roster-text").addEventListener("input", (ev) => {
    ev.target.dataset.edited = "1";
  });

  // --- buttons, undo, redo, pairing ---------------------------------------------------------
  for (const b of document.querySelectorAll("button.press")) {
    b.addEventListener("click", async () => {
      const r = await post("/api/press", {button: b.dataset.button}, b);
      if (r) Table.refreshFrame();
      if (r && r.changed === false) showNote("Nothing to do here: the box's screen ignores " + b.dataset.button);
    });
  }
  for (const id of ["undo", "redo"]) {
    const b = document.getElementById(id);
    b.addEventListener("click", async () => {
      // The answer's words say what was undone or redone ("Redone: Ann: Steal, takes 1
      // from Cy; it is Ann's turn"), as the box's toast does.
      const r = await post("/api/" + id, {}, b, true);
      if (!r) return;
      Table.refreshFrame();
      if (r.words || r.did) showNote(said(r.words || r.did));
    });
  }
  // Pause: the box is asked for a state ("paused": true or false), never a toggle, so two
  // phones tapping Pause at once leave the clock paused. The label says what a tap does.
  const pauseButton = document.getElementById("pause");
  const rollButton = document.querySelector("button.press[data-button=ROLL]");
  pauseButton.addEventListener("click", async () => {
    const c = Table.snapshot && Table.snapshot.clock;
    if (!c) return;
    await post("/api/pause", {paused: !c.paused}, pauseButton, true);
  });
  function renderPause(s) {
    const c = s.clock;
    pauseButton.hidden = !s.game || !c || !!(s.state || {}).over;
    if (pauseButton.hidden) return;
    pauseButton.textContent = c.paused ? "Start the clock" : "Pause the clock";  // what a tap does
    pauseButton.classList.toggle("go", c.paused);
    pauseButton.disabled = busy.has(pauseButton);
  }

  // A code that is not 6 digits is said as that, here (the box's answer would be about the
  // code on its screen: "no valid code"). pair.js says the same on the pairing landing.
  function codeProblem(code) {
    if (!code) return "Type the 6 digits the box shows under Pair a phone";
    if (!/^[0-9]+$/.test(code)) return "The code is 6 digits (0-9), not " + code;
    if (code.length !== 6) return "The code is 6 digits; this one has " + code.length;
    return "";
  }
  document.getElementById("pair-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const input = document.getElementById("pair-code");
    const code = input.value.trim();
    const wrong = codeProblem(code);
    input.removeAttribute("aria-invalid");
    if (wrong) { showError(wrong); input.setAttribute("aria-invalid", "true"); input.focus(); return; }
    const r = await call("POST", "/api/pair", {code});
    if (r) {
      document.getElementById("pair-code").value = "";
      await checkPaired();
      Table.reconnect();  // this phone's stream now: told if the phone is forgotten
    }
  });

  function setPaired(yes) {
    showPairBanner(!yes && !onControlPage);  // /control says it in its own pairing form
    const was = paired;  // asked again on every reconnect: load only when it changes
    paired = yes;
    document.body.dataset.paired = yes ? "yes" : "no";
    document.getElementById("control-box").hidden = !yes;
    drive.hidden = !yes;
    document.getElementById("pair-box").hidden = yes || !onControlPage;
    if (yes !== was) Table.redraw();  // the start view's words: "or below" once paired
    if (yes && !was) {
      loadKinds();
      loadRoster();
      actionsKey = "";
      if (Table.snapshot) onSnapshot(Table.snapshot);
    }
  }
  async function checkPaired() {
    try {
      const res = await fetch("/api/me", {credentials: "same-origin"});
      const me = await res.json();
      // Paired a moment ago and not now (the phones were forgotten while this page's stream
      // was away, so no "bye" told it): the page says so, as the bye would have.
      if (paired && !me.paired) showError(FORGOTTEN);
      setPaired(!!me.paired);
    } catch (e) {
      setPaired(false);
    }
  }
  function onSnapshot(s) {
    if (!paired) return;
    if (ngGo.dataset.armed && String(s.game_id) !== ngGo.dataset.armed) disarmNewGame();
    renderActions(s);
    renderPause(s);
    renderDrive(s);
    // The box's ROLL opens its dice: not offered for a kind that uses none (a design's `dice = []`).
    rollButton.hidden = !diceOf(s).length;
    for (const [id, can] of [["undo", s.can_undo], ["redo", s.can_redo]]) {
      const b = document.getElementById(id);
      b.disabled = !can || busy.has(b);
    }
  }

  // --- the box's screen above the buttons, and the "not paired" line at the top -------------
  function showControlFrame(src) {
    const img = document.getElementById("control-frame");
    if (img && src && img.getAttribute("src") !== src) img.src = src;
  }
  function showPairBanner(show) {
    const el = document.getElementById("pair-banner");
    if (el) el.hidden = !show;
  }

  Table.onBye((bye) => {
    // The box ended the stream saying why: the controls go (the page says why).
    if (bye.why === "forgotten" && paired) {
      setPaired(false);
      showError(bye.text || FORGOTTEN);
    } else if (bye.why === "web-off") {
      document.getElementById("control-box").hidden = true;  // back with the web (checkPaired)
      drive.hidden = true;
    }
  });
  Table.onRender(renderedNow);
  Table.onRender(onSnapshot);
  Table.onFrame(showControlFrame);
  // On load and after every reconnect (the box restarted, or forgot its phones): ask again,
  // so a phone that is no longer paired never shows buttons that look as if they work.
  Table.onConnect(checkPaired);
  checkPaired();
})();
