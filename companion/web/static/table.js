// The live table: renders the box's snapshot (GET /api/state, SSE /api/events) and keeps the
// stream open by itself. Names come from players: they are set with textContent, never as HTML.
"use strict";

const Table = (function () {
  const MODE = document.body.className.replace(/^.*mode-(\w+).*$/, "$1");
  const TV = MODE === "tv";
  const listeners = [];
  const frameListeners = [];  // fn(src) for every frame the box pushes
  const connectListeners = [];  // fn() on every (re)connect of the event stream
  const byeListeners = [];  // fn({why, text}) when the box ends the stream saying why
  let off = false;  // the box said its web was switched off: say so, and look back quietly
  let frameN = 0;  // the newest frame pushed ("frame" events); 0: none yet
  let snap = null;
  let source = null;
  let retry = 500;

  // --- little DOM helpers -------------------------------------------------------------------
  function h(tag, attrs, ...kids) {
    const el = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") el.className = v;
      else if (k === "text") el.textContent = v;
      else if (k === "style") el.setAttribute("style", v);
      else if (k.includes("-") || k === "for" || k === "list" || k === "role") el.setAttribute(k, v);
      else el[k] = v;
    }
    for (const kid of kids.flat(Infinity)) {
      if (kid === null || kid === undefined || kid === false) continue;
      el.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
    }
    return el;
  }
  function fill(id, ...kids) {
    const el = document.getElementById(id);
    if (el) el.replaceChildren(...kids.flat().filter((k) => k !== null && k !== undefined));
    return el;
  }
  function stat(label, value, cls) {
    return h("div", {class: "stat " + (cls || "")}, h("span", {class: "stat-v", text: value}),
             h("span", {class: "stat-l", text: label}));
  }

  // --- dice and colors ----------------------------------------------------------------------
  const SHAPES = {square: "■", circle: "●", star: "★", cross: "✚", pentagon: "⬟", logo: "✦"};
  const DIE_NAMES = {colors: "Colors", shapes: "Shapes", d8: "8-sided", d6: "6-sided"};
  function chip(color, text) {
    // The colour's name is always there in words: shown, or (a chip showing a letter, "R")
    // given as the chip's name for screen readers and its tooltip, so colour is never the only
    // sign. (Not a hidden span: on the TV it counted in the fitted column's width.)
    const name = String(color);
    const cls = "chip c-" + name.toLowerCase().replace(/[^a-z]/g, "");
    if (text === undefined || String(text).toLowerCase() === name.toLowerCase())
      return h("span", {class: cls, text: text === undefined ? name : text});
    return h("span", {class: cls, title: name, "data-color": name, role: "img",
                      "aria-label": name, text: text});
  }
  function die(kind, face) {
    let glyph = String(face);
    let cls = "die";
    if (kind === "colors") cls += " c-" + String(face).toLowerCase();
    if (kind === "shapes") glyph = SHAPES[face] || String(face);
    return h("div", {class: "die-box"},
             h("div", {class: cls, "data-die": kind, text: kind === "colors" ? "" : glyph}),
             h("div", {class: "die-l", text: kind === "shapes" || kind === "colors"
                       ? String(face) : DIE_NAMES[kind] || kind}));
  }

  // --- whose turn ---------------------------------------------------------------------------
  function upcoming(s, st) {
    const n = s.players.length;
    const out = new Set(st.eliminated || []);
    const step = (seat) => {
      for (let i = 1; i <= n; i++) {
        const k = ((seat + st.direction * i) % n + n) % n;
        if (!out.has(k)) return k;
      }
      return seat;
    };
    let seat = step(st.current);
    for (let i = 0; i < (st.pending_skips || 0); i++) seat = step(seat);
    return seat;
  }
  function names(s, seats) {
    return (seats || []).map((k) => s.players[k]).join(", ");
  }

  function fitText(el, maxPx) {
    // Biggest size at which the name fits its box (long names shrink, short ones stay huge).
    let size = maxPx;
    el.style.fontSize = size + "px";
    while (size > 18 && (el.scrollWidth > el.clientWidth + 1)) {
      size = Math.floor(size * 0.9);
      el.style.fontSize = size + "px";
    }
  }

  function startWords(s) {
    // The start menu's facts in plain words: the unfinished games its Resume offers, and
    // where they can be resumed (a paired phone has them below, on its start view).
    const games = s.unfinished || [];
    const paired = document.body.dataset.paired === "yes";
    const where = TV ? "on the box" : paired ? "on the box or below" : "on the box or from a paired phone";
    if (!games.length) return "Start a game " + where;
    if (games.length === 1) {
      const g = games[0];
      return g.title + " #" + g.game_id + " (" + g.players.join(", ") + ") is unfinished: resume it " +
             where + ", or start a new game";
    }
    return games.length + " unfinished games can be resumed " + where + ", or start a new game";
  }

  // /tv's Share: while a group's own design is on, its design file's QR code and link
  // (GET /api/design/<kind>.json, docs/web.md "The TV"), for another group to import.
  let shared = null;
  function renderShare(s) {
    const fig = document.getElementById("tv-share");
    if (!fig) return;
    const kind = s.game && s.game.startsWith("design:") ? s.game : null;
    if (kind === shared) return;
    shared = kind;
    fig.hidden = kind === null;
    if (kind === null) return;
    const path = "/api/design/" + kind;
    document.getElementById("tv-share-qr").src = path + ".png";
    document.getElementById("tv-share-title").textContent = s.title || kind;
    // The link in pieces that each stay whole, so a narrow column breaks it only at a slash.
    const link = document.getElementById("tv-share-link");
    link.replaceChildren(...[location.origin, "/api/design/", kind + ".json"]
      .map((piece) => h("span", {class: "tv-share-piece", text: piece})));
  }

  function renderTurn(s) {
    renderShare(s);
    const st = s.state || {};
    const who = document.getElementById("who");
    const sub = [];
    document.getElementById("kind").textContent = s.game ? (s.title || s.game) + (st.over ? " · game over" : "")
                                                         : "Chroma Table";
    const turn = document.getElementById("turn");
    turn.dataset.state = !s.game ? "idle" : st.over ? "over" : "playing";
    if (!s.game) {
      who.textContent = "No game on the table";
      sub.push(h("span", {class: "start-words", text: startWords(s)}));
    } else if (st.over) {
      const w = st.winners || [];
      who.textContent = w.length ? names(s, w) : "Game over";
      sub.push(h("span", {class: "big-note", text: w.length ? (w.length > 1 ? "win together" : "wins!")
                                                              : "nobody wins"}));
      if (w.length > 1) { fill("turn-sub", sub); fitWho(s, whoMax(TV ? 0.18 : 0.16)); return; }
    } else {
      who.textContent = s.players[st.current];
      const cw = st.direction === 1;
      sub.push(h("span", {class: "dir", "data-dir": cw ? "cw" : "ccw",
                          text: cw ? "↻ clockwise" : "↺ counter-clockwise"}));
      sub.push(h("span", {class: "next", text: "next: " + s.players[upcoming(s, st)]}));
      for (const t of (s.view && s.view.turn) || []) sub.push(h("span", {class: "skips", text: t}));
      if (st.pending_skips) {
        sub.push(h("span", {class: "skips",
                            text: st.pending_skips + (st.pending_skips > 1 ? " skips" : " skip") + " pending"}));
      }
    }
    fill("turn-sub", sub);
    fitText(who, whoMax(TV ? 0.18 : 0.16));
  }
  function whoMax(share) {
    // The headline's biggest size: a share of the screen's height, within bounds.
    return Math.min(TV ? 200 : 160, Math.max(48, window.innerHeight * share));
  }

  // Several winners: their names head the screen when they fit there big, a third bigger
  // than "win together" under them. Seven 16-letter names did not (18 px, and cut): then the
  // headline counts them ("7 players share the win") and the names are where they fit whole:
  // the TV's players' table marks each winner's row with a star (a TV cannot scroll), and on
  // a phone or the control page a line under the headline lists them (it wraps; they scroll).
  const SHARED_MIN = 1.3;
  const SHARED_HIGH = 0.1;  // of the screen's height: the TV's count headline at most
  function fitWho(s, maxPx) {
    const st = s.state || {};
    const w = st.winners || [];
    const who = document.getElementById("who");
    if (!s.game || !st.over || w.length < 2) { fitText(who, maxPx); return; }
    who.textContent = names(s, w);
    fill("turn-sub", h("span", {class: "big-note", text: "win together"}));
    fitText(who, maxPx);
    const note = document.querySelector("#turn-sub .big-note");
    const big = parseFloat(who.style.fontSize) >= SHARED_MIN * parseFloat(getComputedStyle(note).fontSize);
    if (big && who.scrollWidth <= who.clientWidth + 1) return;
    who.textContent = (w.length === s.players.length ? "All " + w.length : String(w.length)) +
                      " players share the win";
    fill("turn-sub", TV ? h("span", {class: "big-note", text: "★ marks them in the table"})
                        : h("span", {class: "winners-list", text: names(s, w)}));
    // Not as high as a name: the lines are for the table, which names them.
    fitText(who, TV ? Math.min(maxPx, window.innerHeight * SHARED_HIGH) : maxPx);
  }

  // --- the turn clock -----------------------------------------------------------------------
  // The snapshot's `clock` (docs/web.md) is the clock as the box made the snapshot; a new one
  // comes only with a change (a move, a pause, a break beginning). While it runs the page
  // counts on by itself: the seconds since that snapshot was made (how old it was when sent,
  // from the box's own times, then performance.now(): the phone's wall clock is never
  // compared with the box's) go to the current turn and its seat's total and come off what
  // is left, and the alarm is worked out as the box does (docs/clock.md): WARN_BEFORE
  // seconds left or less "warn", none left "time".
  let clockSnap = null;  // the snapshot whose clock is shown
  let clockAt = 0;  // performance.now() when it was made (when it came, less its age)
  let clockTimer = 0;
  let clockShape = "";  // the clock's texts' lengths: the TV is fitted again when they change
  let alarmSeen = null;  // [the turn, its alarm] last shown: a phone vibrates as it changes
  const VIBRATE = {warn: [200], time: [400, 150, 400]};

  function clockText(seconds, left) {
    // As the box's clock_text: played time rounded down, time left rounded up; past the
    // limit "-0:04".
    const whole = left ? Math.ceil(seconds) : Math.floor(seconds);
    const a = Math.abs(whole);
    const hh = Math.floor(a / 3600);
    const mm = Math.floor((a % 3600) / 60);
    const ss = String(a % 60).padStart(2, "0");
    return (whole < 0 ? "-" : "") + (hh ? hh + ":" + String(mm).padStart(2, "0") : mm) + ":" + ss;
  }
  function clockNow() {
    // The clock as it is now: the snapshot's figures moved on by the seconds since it came.
    const c = clockSnap && clockSnap.clock;
    if (!c) return null;
    const dt = c.running ? Math.max(0, (performance.now() - clockAt) / 1000) : 0;
    const moved = (list, d) => (list ? list.map((v, k) => (k === c.seat ? v + d : v)) : null);
    const left = c.left === null || c.left === undefined ? null : c.left - dt;
    const alarm = left === null ? "" : left <= 0 ? "time" : left <= c.warn_before ? "warn" : "";
    return {c, elapsed: c.elapsed + dt, left, alarm, totals: moved(c.totals, dt),
            banks: moved(c.banks, -dt)};
  }
  function seatTime(now, what, k) {
    // A player's cell: their time this game, their average turn, what is left in their bank.
    if (what === "total") return clockText(now.totals[k]);
    if (what === "bank") return now.banks ? clockText(now.banks[k], true) : "";
    const turns = now.c.turns[k];
    return turns ? clockText(now.totals[k] / turns) : "–";
  }
  function clockColumns(s, wide) {
    // The players table's columns of the clock: [head, what, title]. The TV shows the
    // average in a column of its own (`wide`: a row a line high) or under the time (fitTV
    // tries both for many players: two tables side by side are narrower so); a phone shows
    // it under the time ("both").
    if (!s.clock) return [];
    const cols = wide ? [["Time", "total", "Time played this game"], ["Avg turn", "avg", "Average turn"]]
                    : [["Time", "both", "Time played this game, and the average turn"]];
    if (s.clock.banks) cols.push(["Bank", "bank", "Time left in the bank"]);
    return cols;
  }
  function fillSeatTimes(root, now) {
    if (!now) return;
    const put = (el, t) => { if (el.textContent !== t) el.textContent = t; };
    for (const td of root.querySelectorAll("td[data-clock]")) {
      const k = +td.dataset.seat;
      if (td.dataset.clock !== "both") { put(td, seatTime(now, td.dataset.clock, k)); continue; }
      if (!td.firstChild) td.append(h("span", {class: "t"}), h("small", {class: "avg"}));
      put(td.firstChild, seatTime(now, "total", k));
      put(td.lastChild, "avg " + seatTime(now, "avg", k));
    }
  }
  function limitWords(c) {
    // The game's clock rule, beside the name (which the words need not repeat).
    if (c.limit.turn) return "left of " + clockText(c.limit.turn) + " a turn";
    if (c.banks) return "left in the bank" + (c.limit.bonus ? " (+" + c.limit.bonus + " s a turn)" : "");
    return "this turn";
  }
  function showClock() {
    // Draw the clock as it is now, then again when the seconds shown next change.
    clearTimeout(clockTimer);
    const s = clockSnap;
    const box = document.getElementById("clock");
    const turn = document.getElementById("turn");
    const now = s && s.game && !(s.state || {}).over ? clockNow() : null;
    const on = !!(now && now.c.seat !== null && now.c.seat !== undefined);
    if (box) box.hidden = !on;
    // Paused, or on a break, the clock stands still and nobody is late: no amber, no red
    // (the words say "Paused" or "Break", on the header's usual colours).
    const alarm = on && !now.c.paused && !now.c.on_break ? now.alarm : "";
    turn.dataset.alarm = alarm;
    document.body.dataset.alarm = alarm;
    if (!on) {
      clockShape = "";
      alarmSeen = null;
      if (now) fillSeatTimes(document, now);
      return;
    }
    const c = now.c;
    const time = now.left !== null ? clockText(now.left, true) : clockText(now.elapsed);
    const state = c.paused ? "Paused" : c.on_break ? "Break" : alarm === "time" ? "Time!"
                : alarm === "warn" ? "Almost time" : "";
    const note = c.on_break ? "no press for " + Math.round(c.break_after / 60) + " min: not counted"
               : now.left !== null && alarm === "time"
                 ? clockText(-now.left) + " over · " + clockText(now.elapsed) + " this turn"
               : now.left !== null ? limitWords(c) + " · " + clockText(now.elapsed) + " played"
               : limitWords(c);
    const set = (id, text) => { const el = document.getElementById(id); if (el.textContent !== text) el.textContent = text; };
    set("clock-time", time);
    set("clock-state", state);
    document.getElementById("clock-state").hidden = !state;
    set("clock-note", note);
    box.dataset.state = c.paused ? "paused" : c.on_break ? "break" : alarm || "running";
    fillSeatTimes(document, now);
    // A phone buzzes once at the warning and once at "Time!" of each turn it watches.
    const key = s.game_id + ":" + c.seat + ":" + c.turns[c.seat];
    if (!TV && alarm && alarmSeen && alarmSeen[0] === key && alarmSeen[1] !== alarm &&
        navigator.vibrate) {
      try { navigator.vibrate(VIBRATE[alarm]); } catch (e) { /* not allowed here */ }
    }
    alarmSeen = [key, alarm];
    const shape = [time.length, state, note.length, ...[...document.querySelectorAll("td[data-clock]")]
                   .map((td) => td.textContent.length)].join(",");
    if (TV && shape !== clockShape && clockShape) fitClock();
    clockShape = shape;
    if (!c.running) return;
    // The next change of the seconds shown: the turn's, or what is left.
    const next = (x) => 1 - (x - Math.floor(x));
    let wait = next(now.elapsed);
    if (now.left !== null) wait = Math.min(wait, next(-now.left));
    clockTimer = setTimeout(showClock, Math.max(50, wait * 1000 + 15));
  }
  function fitClock() {
    // The TV: the clock beside the name is smaller than the name, which is fitted to what
    // the clock leaves it; then the columns again (a wider time may not fit).
    // When the columns are cut even so (many players, the clock's columns, no words under
    // the floor), the header is made shorter ("tv-tight": a smaller name and clock) and
    // the columns fitted again.
    if (!TV || !snap) return;
    const who = document.getElementById("who");
    const time = document.getElementById("clock-time");
    const header = (tight) => {
      document.body.classList.toggle("tv-tight", tight);
      time.style.fontSize = "";
      fitWho(snap, whoMax(tight ? 0.13 : 0.18));
      const cap = parseFloat(getComputedStyle(who).fontSize) * 0.75;
      if (parseFloat(getComputedStyle(time).fontSize) > cap) time.style.fontSize = cap + "px";
    };
    // Last, when even the tight header leaves the columns cut, the favourite's line under the
    // name gives way ("tv-crowded", favourite.css): the game's figures come first.
    document.body.classList.remove("tv-crowded");
    header(false);
    if (fitTV() === 0) {
      header(true);
      if (fitTV() === 0 && document.querySelector("#favourite:not([hidden])")) {
        document.body.classList.add("tv-crowded");
        fitTV();
      }
    }
  }
  function renderClock(s) {
    // A snapshot made a while before it was sent (the one a page gets as it opens) is as
    // old as the box says: its `now` as it was sent, less the clock's `at` (both the box's).
    if (s !== clockSnap) {
      const c = s.clock;
      const age = c && typeof s.now === "number" && typeof c.at === "number" ? Math.max(0, s.now - c.at) : 0;
      clockSnap = s;
      clockAt = performance.now() - age * 1000;
    }
    clockShape = "";  // the page is fitted at the end of render()
    showClock();
  }

  // --- the game panel: the kind's own view -------------------------------------------------
  // The snapshot's `view`, worked out by the box from the kind's declarations
  // (companion/web/kinds.py is the vocabulary): nothing here knows a kind.
  function rounds(w) {
    // The TV has no scrolling: its table keeps the last rounds (the totals count them all).
    const first = TV ? Math.max(0, w.rows.length - w.tv_rows) : 0;
    const head = h("tr", {}, h("th", {text: w.head}),
                   w.names.map((n) => h("th", {class: "pcol"}, h("span", {text: n}))));
    const rows = w.rows.slice(first).map((r) => h("tr", {},
      h("td", {text: r.label}),
      r.cells.map((p, k) => h("td", {class: r.mark === k ? w.mark_class : "",
                                     title: r.mark === k ? w.mark_title : "",
                                     text: (r.mark === k ? w.mark_glyph || "" : "") + p}))));
    const total = h("tr", {class: "total"}, h("th", {text: w.total.label}),
                    w.total.cells.map((p) => h("th", {text: String(p)})));
    const note = h("p", {class: "note"});
    const table = h("table", {class: "rounds"},
                    h("thead", {}, head), h("tbody", {}, rows), h("tfoot", {}, total));
    const say = (n) => { note.textContent = (w.note || "") + (n && w.cut ? "; " + w.cut.replace("{n}", String(n)) : ""); };
    say(first);
    // The TV's fit takes the oldest shown round off when the column cannot hold them all
    // even at the smallest type (fitColumn): the note then says how many are left out.
    let shown = first;
    table.dropOldest = () => {
      const body = table.tBodies[0];
      if (!w.cut || !body || body.rows.length <= 1) return false;
      body.rows[0].remove();
      say(++shown);
      return true;
    };
    return [h("div", {class: "scroll"}, table), note];
  }
  function widget(w) {
    switch (w.kind) {
      case "stat": return stat(w.label, w.value, w.style);
      case "chip-stat":
        return h("div", {class: "stat " + (w.style || "")},
                 w.color ? chip(w.color) : h("span", {class: "stat-v", text: w.none}),
                 h("span", {class: "stat-l", text: w.label}));
      case "chips-stat":
        return h("div", {class: "stat " + (w.style || "")},
                 h("span", {class: "stat-v chips"}, w.colors && w.colors.length ? w.colors.map((c) => chip(c)) : w.none),
                 h("span", {class: "stat-l", text: w.label}));
      case "dice":
        return h("div", {class: "stat " + (w.style || "")},
                 h("div", {class: "dice"}, w.dice.map((d) => d.face !== null && d.face !== undefined && d.face !== ""
                   ? die(d.die, d.face)
                   : h("div", {class: "die-box"}, h("div", {class: "die empty", text: "?"}),
                       h("div", {class: "die-l", text: d.empty})))),
                 h("span", {class: "stat-l", text: w.label}));
      case "garden":
        return h("div", {class: "garden"}, w.beds.map((b) =>
          h("div", {class: "bed"}, chip(b.color),
            h("span", {class: "petals", role: "img", "aria-label": b.n + " of " + w.of + " petals"},
              Array.from({length: w.of}, (_, i) => h("span", {class: i < b.n ? "petal on c-" + b.color : "petal"}))),
            h("span", {class: "bed-n", text: b.n + "/" + w.of}))));
      case "rounds": return rounds(w);
      case "note": return h("p", {class: "note", text: w.text});
      default: return null;
    }
  }

  function renderGame(s) {
    const view = s.game ? s.view : null;
    const sec = document.getElementById("game");
    sec.hidden = !view;
    if (!view) return;
    fill("game", h("h2", {text: s.title || s.game}), h("div", {class: "stats"}, (view.stats || []).map(widget)));
    sec.style.setProperty("--cols", String(s.players.length + 1));  // the TV's round table fits
    fitRounds();
  }
  function fitRounds() {
    // A player's column is headed by the whole name, written across. Only when the columns
    // would not fit the width that way (many players, long names) are the names written
    // upwards, so a 16-letter name does not widen its column; the TV sizes its table instead.
    if (TV) return;
    for (const t of document.querySelectorAll("table.rounds")) {
      t.classList.add("fitted");
      t.classList.remove("upright");
      const box = t.parentElement;
      if (box && box.clientWidth && t.scrollWidth > box.clientWidth) t.classList.add("upright");
    }
  }

  function cell(v) {
    // A column's cell: text, or a row of chips.
    return Array.isArray(v) ? h("span", {class: "chips"}, v.map((c) => chip(c.color, c.text))) : String(v);
  }

  // A column's head in short (the TV, when the whole words cannot fit, even written upwards:
  // a group's own game may head four columns with 16-letter words): its first `min` letters
  // and a full stop, one more where two would read the same, and numbered where they still
  // would ("Poi.1", "Poi.2": a letter less, so no wider); a word no longer than `min` + 1
  // stays whole. Four heads of SHORT letters ("Mamm.") and the rest of a 16 players' table
  // fit a 720p screen; SHORTER letters ("Ma.") are the last resort, for the widest letters.
  const SHORT = 4;
  const SHORTER = 2;
  function shortHeads(names, min) {
    const chars = names.map((n) => Array.from(String(n)));
    const lens = names.map(() => min);
    const letters = (i, n) => chars[i].slice(0, n).join("").trimEnd() + ".";
    const cut = (i) => (chars[i].length <= lens[i] + 1 ? names[i] : letters(i, lens[i]));
    const alike = (shorts) => {  // the groups of heads that read the same
      const same = new Map();
      shorts.forEach((t, i) => same.set(t.toLowerCase(), [...(same.get(t.toLowerCase()) || []), i]));
      return [...same.values()].filter((seats) => seats.length > 1);
    };
    for (;;) {
      const shorts = names.map((n, i) => cut(i));
      const groups = alike(shorts);
      let longer = false;
      for (const g of groups) {
        for (const i of g) {
          if (lens[i] === min && lens[i] + 1 < chars[i].length) { lens[i]++; longer = true; }
        }
      }
      if (longer) continue;
      for (const g of groups) g.forEach((i, n) => { shorts[i] = letters(i, Math.max(1, min - 1)) + (n + 1); });
      return shorts;
    }
  }
  function headsShorten(s) {
    // Whether the players' table has a head that shortHeads writes shorter (one long enough
    // to be worth writing upwards, too).
    const names = ((s.view || {}).columns || []).map((c) => c.name);
    return shortHeads(names, SHORT).some((t, i) => t !== names[i]);
  }

  function renderPlayers(s, halves, wide, heads) {
    // `halves`: the TV's two tables side by side, the first half of the seats and the second
    // (many players: the rows are bigger so). `heads`: how the TV writes the kind's column
    // heads: "across" (the default), "upright" (written upwards, as the round table's names
    // are: a long word no longer widens its column), "short" or "shorter" (each an
    // abbreviation with its whole word as aria-label and title, and the words in full in a
    // key under the table).
    const st = s.state || {};
    const sec = document.getElementById("players");
    sec.hidden = !s.game;
    if (!s.game) return;
    const cols = (s.view || {}).columns || [];
    const out = new Set(st.eliminated || []);
    const win = new Set(st.winners || []);
    const times = clockColumns(s, TV && (wide ?? !halves));
    const named = cols.map((c) => c.name);
    const shorts = heads === "short" ? shortHeads(named, SHORT)
                 : heads === "shorter" ? shortHeads(named, SHORTER) : named;
    const head = h("tr", {}, h("th", {text: "Player"}),
                   cols.map((c, i) => shorts[i] === c.name ? h("th", {class: "col-h"}, h("span", {text: c.name}))
                     : h("th", {"aria-label": c.name}, h("abbr", {title: c.name, text: shorts[i]}))),
                   times.map(([t, , title]) => h("th", {class: "num clock-col", title, text: t})));
    const key = shorts.some((t, i) => t !== cols[i].name)
      ? h("p", {class: "note heads-key", "aria-hidden": "true"}, cols.map((c, i) => shorts[i] === c.name ? null
          : [h("span", {class: "head-key"}, h("b", {text: shorts[i]}), " " + c.name), " "]))
      : null;
    const rows = s.players.map((name, k) => {
      const cls = [k === st.current && !st.over ? "current" : "", out.has(k) ? "out" : "",
                   win.has(k) ? "winner" : ""].join(" ").trim();
      return h("tr", {class: cls, "data-seat": String(k)},
        // The marker and the name side by side in one box: a long name wraps within its own
        // column, never onto a line of its own under the marker; 11 letters or more are
        // written smaller on a phone (CSS) rather than broken mid-word.
        h("td", {class: name.length > 10 ? "name long" : "name"}, h("div", {class: "name-in"},
          k === st.current && !st.over ? h("span", {class: "marker", text: "▶"})
            // A winner's star is named in words ("winner") for a screen reader.
            : win.has(k) ? h("span", {class: "marker", role: "img", "aria-label": "winner", title: "winner", text: "★"})
            : h("span", {class: "marker", text: ""}),
          h("span", {class: "name-t", text: name}))),
        cols.map((c) => h("td", {class: "num"}, cell(c.cells[k]))),
        times.map(([, what]) => h("td", {class: "num clock-col", "data-clock": what, "data-seat": String(k)})));
    });
    const seatsClass = heads === "upright" ? "seats upright" : "seats";
    if (!halves) {
      fill("players", h("table", {class: seatsClass}, h("thead", {}, head), h("tbody", {}, rows)), key);
      fillSeatTimes(sec, clockSnap === s ? clockNow() : null);
      return;
    }
    const cut = Math.ceil(rows.length / 2);
    fill("players", h("div", {class: "seats-halves"},
      [rows.slice(0, cut), rows.slice(cut)].map((part) => h("table", {class: seatsClass},
        h("thead", {}, head.cloneNode(true)), h("tbody", {}, part)))), key);
    fillSeatTimes(sec, clockSnap === s ? clockNow() : null);
  }

  function renderRoll(s) {
    const sec = document.getElementById("roll");
    const r = s.roll;
    sec.hidden = !s.game || !r || !r.dice;
    if (sec.hidden) return;
    const who = typeof r.player === "number" ? s.players[r.player] : "";
    fill("roll", h("h2", {text: "Last roll" + (who ? " · " + who : "")}),
         h("div", {class: "dice"}, Object.entries(r.dice).map(([k, v]) => die(k, v))));
  }

  function renderHistory(s, count) {
    const items = (s.history || []).slice().reverse().slice(0, count || (TV ? TV_HISTORY : 30));
    fill("history", h("h2", {text: "What happened"}),
         items.length ? h("ol", {class: "events"}, items.map((e) =>
           h("li", {value: e.n}, h("span", {class: "n", text: e.n}), e.text)))
                      : h("p", {class: "note", text: "Nothing yet"}));
  }

  // --- the TV: the whole game on one screen -------------------------------------------------
  // A TV cannot scroll, so nothing may be cut. Each column is fitted: at its biggest type
  // (--k 100) with the newest events that fit whole when the history is in it (at least
  // TV_HISTORY_MIN of them), else the round table's names written upwards, else smaller type
  // (--k down to K_SOFT), then one event, then none, and only then smaller type still (down
  // to K_MIN). Fewer lines rather than cut lines. The history goes under the left column or
  // beside the box on the right, whichever leaves the bigger type, then the more events; many
  // players whose rows came out small sit in two tables side by side when that is bigger.
  const TV_HISTORY = 8;
  const TV_HISTORY_MIN = 3;
  // --k in hundredths: smaller than K_SOFT only when the history is gone, never below K_MIN.
  const K_SOFT = 70;
  const K_MIN = 35;
  const K_STEP = 5;
  const TV_HALVES = 8;  // more players than this may sit in two tables side by side
  const tvChoices = new Map();  // what fitTV chose (and its score) for what (its key)

  function spills(col) {
    // Whether anything in `col` is cut: content past its own box (the column's included).
    if (col.scrollHeight > col.clientHeight + 1 || col.scrollWidth > col.clientWidth + 1) return true;
    for (const el of col.querySelectorAll("*")) {
      if (!el.clientWidth && !el.clientHeight) continue;  // inline, or not shown
      if (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1) return true;
    }
    return false;
  }

  function fitColumn(col, box, drop) {
    // The column's --k (in hundredths) once it holds its content. Each try lays the page out
    // again, so the type is found by halving (the first try is the biggest, which most games
    // fit) and the history is trimmed by measuring, not one event at a time.
    const mine = box.parentElement === col;
    const trim = (keep) => {  // the oldest events go first: those below the column's edge
      const items = box.querySelectorAll("li");
      if (items.length <= keep) return;
      const last = items[items.length - 1].getBoundingClientRect().bottom;
      const limit = col.getBoundingClientRect().bottom - (box.getBoundingClientRect().bottom - last);
      for (let i = items.length - 1; i >= keep && items[i].getBoundingClientRect().bottom > limit + 0.5; i--) {
        items[i].remove();
      }
      while (box.querySelectorAll("li").length > keep && col.scrollHeight > col.clientHeight + 1) {
        box.querySelector("ol").lastElementChild.remove();
      }
    };
    const rounds = col.querySelector("table.rounds");
    const tooWide = () => rounds && rounds.parentElement.scrollWidth > rounds.parentElement.clientWidth + 1;
    // Whether the column holds its content at --k = k/100 (with `keep` events at least when
    // the history is here; a round table too wide with its names written upwards).
    const fits = (k, keep) => {
      col.style.setProperty("--k", String(k / 100));
      if (rounds) rounds.classList.remove("upright");
      if (keep) { renderHistory(snap); trim(keep); }
      if (!spills(col)) return true;
      if (!tooWide()) return false;
      rounds.classList.add("upright");
      if (keep) { renderHistory(snap); trim(keep); }
      return !spills(col);
    };
    // The biggest k from 100 down to `floor` (in steps of K_STEP) that fits, the column left
    // at it; or null, the column left at `floor`.
    const biggest = (floor, keep) => {
      if (fits(100, keep)) return 100;
      if (!fits(floor, keep)) return null;
      let lo = floor;  // fits
      let hi = 100;  // does not
      while (hi - lo > K_STEP) {
        const mid = lo + Math.max(1, Math.round((hi - lo) / 2 / K_STEP)) * K_STEP;
        if (mid >= hi) break;
        if (fits(mid, keep)) lo = mid; else hi = mid;
      }
      fits(lo, keep);
      return lo;
    };
    let k = biggest(K_SOFT, mine ? TV_HISTORY_MIN : 0);
    if (k !== null) return k;
    if (mine) {
      trim(1);
      if (!spills(col)) return K_SOFT;
      box.hidden = true;  // no room for one event at a readable size: the game comes first
    }
    k = biggest(K_MIN, 0);
    if (k !== null) return k;
    // Still cut (no words are smaller than the floor): the round table's oldest rows go,
    // down to the last round (the totals count them all).
    let dropped = false;
    if (!drop) return 0;
    // (One at a time, and looked at each time: a marked cell gone can narrow a column, so
    // the names may go back across, which is shorter.)
    while (rounds && rounds.dropOldest && !fits(K_MIN, 0) && rounds.dropOldest()) dropped = true;
    k = dropped ? biggest(K_MIN, 0) : null;
    return k === null ? 0 : k;  // 0: cut even so
  }

  function fitTV() {
    const box = document.getElementById("history");
    const cols = [document.querySelector(".col-a"), document.querySelector(".col-b")];
    if (!box || !cols[0] || !cols[1] || !snap) return 100;
    // With the history in `col`, both columns fitted (the left one first: the right one has
    // the width it leaves): [the smaller --k in hundredths, the events shown].
    const place = (col) => {
      if (snap.game) renderGame(snap);  // every round the kind shows on a TV, again
      box.hidden = false;
      col.append(box);
      renderHistory(snap);
      for (const c of cols) c.style.setProperty("--k", "1");
      const ks = cols.map((c) => fitColumn(c, box, false));
      // The right column cut even at its smallest: the left one's type smaller, so it is
      // narrower and leaves the right one more width (a round table of many players then
      // fits with its names written across, not upwards); failing that, the same again
      // letting the round table drop its oldest rounds. The first that fits is kept.
      const refit = (kl, drop) => {
        cols[0].style.setProperty("--k", String(kl / 100));
        if (snap.game) renderGame(snap);
        if (box.parentElement === cols[1]) { box.hidden = false; renderHistory(snap); }
        ks[0] = kl;
        ks[1] = fitColumn(cols[1], box, drop);
        return ks[1] > 0;
      };
      const k0 = ks[0];
      const narrower = box.parentElement !== cols[0];  // (the left one's history is fitted)
      for (const drop of [false, true]) {
        if (ks[1] > 0) break;
        // The biggest left --k that lets the right column fit, found by halving between the
        // narrowest (K_MIN) and k0 (known not to fit without dropping rounds).
        let lo = narrower ? K_MIN : k0;
        if (lo === k0 && !drop) continue;
        if (!refit(lo, drop)) continue;
        let hi = drop ? k0 + K_STEP : k0;  // does not fit (or is past k0)
        while (hi - lo > K_STEP) {
          const mid = lo + Math.max(1, Math.round((hi - lo) / 2 / K_STEP)) * K_STEP;
          if (mid >= hi) break;
          if (refit(mid, drop)) lo = mid; else hi = mid;
        }
        if (ks[0] !== lo || ks[1] === 0) refit(lo, drop);
      }
      return [Math.min(...ks), box.hidden ? 0 : box.querySelectorAll("li").length];
    };
    const all = Math.min(TV_HISTORY, (snap.history || []).length);
    // The layout chosen last time is tried first, alone, when nothing it depends on changed
    // (the screen, the header and its height, the game, its players, the clock, how full the
    // history is): a move then costs one fit, not the whole search (a dozen players' Pig
    // Farm: ~8x). The header's height is the room it leaves the columns: the clock's
    // "Almost time" and "Time!" make it taller, and the history beside the box at the
    // running clock's header may find no room under the taller one, where the left column
    // still has it.
    const turn = document.getElementById("turn");
    const key = [innerWidth, innerHeight, document.body.classList.contains("tv-tight") ? "tight" : "",
                 document.body.classList.contains("tv-crowded") ? "crowded" : "",
                 turn ? Math.round(turn.getBoundingClientRect().height) : 0,
                 snap.game_id, snap.players.length, !!snap.clock, all].join(":");
    const tight = document.body.classList.contains("tv-tight");
    const chosen = snap.game ? tvChoices.get(key) : undefined;
    if (chosen && !chosen.score && !tight) return 0;  // cut at this header: fitClock's tighter
    if (chosen) {
      renderPlayers(snap, chosen.halves, chosen.wide, chosen.heads);
      const again = place(chosen.side);
      // As good as it was: nothing cut and as many events (the history dropped, or fewer of
      // its events, is searched again: the other side may hold them); or as good as it gets.
      if ((again[0] > 0 && again[1] >= chosen.events) || !chosen.score) {
        document.body.dataset.fitted = innerWidth + "x" + innerHeight + ":" + snap.seq;
        return again[0];
      }
    }
    const arrange = () => {  // the history where it does best; that placement's score
      const left = place(cols[0]);
      if (left[0] === 100 && left[1] === all) return left;  // the left column holds it all
      const right = place(cols[1]);
      // One step of type is worth less than more of the history.
      if (left[0] - right[0] > K_STEP || (Math.abs(left[0] - right[0]) <= K_STEP && left[1] > right[1])) {
        return place(cols[0]);
      }
      return right;
    };
    // The players' table: one, its rows a line high (the average turn in a column of its
    // own); for many players whose rows came out small, two side by side (the average under
    // the time: narrower), or one with the average under the time; whichever is biggest,
    // the first of them on a tie.
    const tries = snap.game && snap.players.length > TV_HALVES
      ? [[false, true], [true, false], [false, false]] : [[false, true]];
    // The columns' heads are written across; only when every layout cuts something are they
    // written upwards or short (with the key under the table), whichever leaves the bigger
    // type (upwards on a tie: the whole words at their columns), and only when both cut
    // something, shorter still: a group's own game may head four columns with 16-letter
    // words, which no 16 players' table holds across a 720p screen, nor upwards above 16 rows.
    let best = null;
    let last = null;
    const ways = snap.game && headsShorten(snap) ? ["across", "upright", "short", "shorter"] : ["across"];
    for (const heads of ways) {
      if ((heads === "upright" || heads === "shorter") && best && best[0][0] > 0) break;
      for (const [halves, wide] of tries) {
        if (!snap.game) break;
        renderPlayers(snap, halves, wide, heads);
        last = [arrange(), halves, wide, heads];
        if (!best || last[0][0] > best[0][0]) best = last;
        if (last[0][0] >= K_SOFT) break;
      }
    }
    const score0 = snap.game ? 0 : arrange()[0];  // no game: no players' table
    if (best && best !== last) { renderPlayers(snap, best[1], best[2], best[3]); arrange(); }
    if (best) {
      if (tvChoices.size > 8) tvChoices.clear();
      tvChoices.set(key, {score: best[0][0], events: best[0][1], halves: best[1], wide: best[2],
                          heads: best[3], side: box.parentElement});
    }
    document.body.dataset.fitted = innerWidth + "x" + innerHeight + ":" + snap.seq;
    return best ? best[0][0] : score0;
  }

  function renderFrame(s) {
    // The stream's "frame" events show the box's picture; the snapshot's own link only
    // paints it before the first of them.
    if (frameN) return;
    const img = document.getElementById("frame-img");
    if (img && s.frame && img.getAttribute("src") !== s.frame) img.src = s.frame;
  }

  function showFrame(f) {
    if (!f || typeof f.n !== "number" || f.n === frameN) return;
    frameN = f.n;
    const img = document.getElementById("frame-img");
    if (img) img.src = f.src;
    for (const fn of frameListeners) fn(f.src);
  }

  // --- the seat lights ----------------------------------------------------------------------
  // The snapshot's `ring` (docs/lights.md): the box's ring of LEDs at rest, drawn as dots
  // around the box's picture, LED 0 at the top, clockwise, as on the box. Colour is never the
  // only sign: each seat's dot carries a mark, and a line says it in words (the snapshot's).
  // Each a glyph that DejaVu Sans (on a Pi, and Debian's chromium here) has; "time" is a
  // stopwatch drawn inline: the emoji ⏱ is an empty box in a browser with no emoji font
  // (tests/web/test_tv_ring.py draws each mark and compares it with a missing glyph's box).
  const RING_MARKS = {turn: "▶", warn: "!", won: "★", out: "✕", skip: "»"};
  function ringMark(mark) {
    // What a seat's dot shows for its light's `mark`: a text glyph, or the stopwatch (an
    // inline SVG kept in the page: templates/live.html #mark-time); null for none.
    if (RING_MARKS[mark]) return document.createTextNode(RING_MARKS[mark]);
    const drawn = document.getElementById("mark-" + mark);
    return drawn ? drawn.content.firstElementChild.cloneNode(true) : null;
  }
  function ink(colour) {
    // The mark's colour on a dot of `colour` (as seen): black on a bright one, white on a
    // dim one (black on a dim seat's grey was 2.9:1).
    const v = (colour.match(/\d+/g) || []).map(Number).map((c) => { c /= 255;
      return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4); });
    const lum = 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2];
    return (lum + 0.05) / 0.05 >= 1.05 / (lum + 0.05) ? "#000" : "#fff";
  }
  // Where LED `i` of `count` sits on the box's outline, in percent: spaced evenly along the
  // border of the picture, from the middle of its top edge, clockwise (ui/ring.py around()).
  function ringSpot(i, count) {
    const w = 2, hgt = 1;  // the picture is 2:1
    const len = 2 * (w + hgt);
    let d = (w / 2 + (i * len) / count) % len;
    let x;
    let y;
    if (d < w) { x = d; y = 0; } else if ((d -= w) < hgt) { x = w; y = d; }
    else if ((d -= hgt) < w) { x = w - d; y = hgt; } else { d -= w; x = 0; y = hgt - d; }
    return [(x / w) * 100, (y / hgt) * 100];
  }
  // How bright a LED looks, drawn on a screen (drivers/lights.py seen): a gamma of about 2.2, so
  // a seat's dim LED is a grey dot, not a black one.
  function seen(colour) {
    const v = [1, 3, 5].map((i) => parseInt(colour.slice(i, i + 2), 16));
    return "rgb(" + v.map((c) => Math.round(255 * Math.pow(c / 255, 0.45))).join(", ") + ")";
  }
  function renderRing(s) {
    const box = document.getElementById("ring-box");
    const dots = document.getElementById("ring");
    const words = document.getElementById("ring-words");
    if (!box || !dots || !words) return;
    const ring = s.ring;
    box.classList.toggle("with-ring", !!ring);
    words.hidden = !ring;
    if (!ring) { dots.replaceChildren(); return; }
    // The picture at least half an em wide per LED (8 em for 16): the dots round it never
    // touch each other, even at its corners (table.css .with-ring).
    box.style.setProperty("--ring-w", String(Math.max(8, ring.pixels.length / 2)));
    const seatOf = {};
    (ring.seats || []).forEach((led, seat) => { seatOf[led] = seat; });
    dots.replaceChildren(...ring.pixels.map((colour, i) => {
      const [x, y] = ringSpot(i, ring.pixels.length);
      const seat = seatOf[i];
      const mark = seat === undefined ? "" : (ring.marks || [])[seat] || "";
      const dot = h("span", {class: "ring-dot" + (colour === "#000000" ? " dark" : ""),
                             "data-led": String(i), "data-mark": mark || null}, ringMark(mark));
      // Through the CSSOM: the pages' Content-Security-Policy refuses style attributes.
      // On the line halfway into the padding round the picture (table.css .with-ring).
      dot.style.left = "calc(.65em + (100% - 1.3em) * " + (x / 100).toFixed(4) + ")";
      dot.style.top = "calc(.65em + (100% - 1.3em) * " + (y / 100).toFixed(4) + ")";
      dot.style.background = seen(colour);
      if (colour !== "#000000") dot.style.color = ink(seen(colour));
      return dot;
    }));
    // The ring's words are the lights'; the clock standing still is said after them (the
    // lights then show the turn, not the clock's alarm).
    const c = s.clock;
    words.textContent = (TV ? ringCount(ring, s.players || []) || ring.words || "" : ring.words || "") +
      (c && c.paused ? " · clock paused" : c && c.on_break ? " · on a break" : "");
  }
  // The TV's ring line when it would name many seats (seven winners' 16-letter names ran
  // past its column): a mark lighting more than RING_NAMED seats counts them ("Lights: Ann's
  // turn · 7 out"), the names being in the players' table beside it; the others are named
  // as the snapshot's words name them (companion/ui/ring.py words). null when no mark
  // lights that many: the snapshot's own words then.
  const RING_NAMED = 2;
  const RING_SAID = {  // [named (the names joined), counted (how many)]
    turn: [(w) => w + "'s turn", (n) => n + " seats' turn"],
    warn: [(w) => w + ": time is running out", (n) => n + " seats' time running out"],
    time: [(w) => w + ": time is up", (n) => n + " seats' time up"],
    skip: [(w, n) => w + (n > 1 ? " are" : " is") + " skipped", (n) => n + " skipped"],
    won: [(w, n) => w + (n > 1 ? " win" : " wins"), (n) => n + " winners lit"],
    out: [(w) => "out: " + w, (n) => n + " out"]};
  function ringCount(ring, players) {
    const marks = ring.marks || [];
    const seats = (m) => marks.map((x, i) => (x === m && i < players.length ? players[i] : null))
      .filter((p) => p !== null);
    if (!Object.keys(RING_SAID).some((m) => seats(m).length > RING_NAMED)) return null;
    const parts = Object.entries(RING_SAID).filter(([m]) => seats(m).length).map(([m, [named, counted]]) => {
      const who = seats(m);
      return who.length > RING_NAMED ? counted(who.length) : named(who.join(", "), who.length);
    });
    return "Lights: " + parts.join(" · ");
  }

  function render(s) {
    snap = s;
    document.body.dataset.game = s.game || "none";
    document.body.dataset.seq = String(s.seq);
    renderClock(s);
    renderTurn(s);
    renderGame(s);
    renderPlayers(s);
    renderRoll(s);
    renderHistory(s);
    renderFrame(s);
    renderRing(s);
    for (const fn of listeners) fn(s);
    if (TV) fitClock();
  }

  // --- the stream ---------------------------------------------------------------------------
  function setConn(state, text) {
    const el = document.getElementById("conn");
    if (!el) return;
    el.dataset.state = state;
    el.textContent = text;
  }

  function boxNote(text) {
    // A line over the page saying what the box said (it stays until the box is back).
    const el = document.getElementById("box-note");
    if (!el) return;
    el.textContent = text;
    el.hidden = !text;
  }

  function connect() {
    if (source) source.close();
    source = new EventSource("/api/events");
    source.onopen = () => {
      // "live" only once the box's state has come through this stream (its first message,
      // sent on connect): until then the page shows what it had, which may be older.
      retry = 500;
      if (off) { off = false; boxNote(""); }
      for (const fn of connectListeners) fn();
    };
    source.addEventListener("bye", (ev) => {
      // The box ends this stream and says why: "The web was switched off on the box" (the
      // page says so, instead of "reconnecting…" forever, and looks every 5 s whether it is
      // back), or "This phone was forgotten on the box" (control.js; the page reconnects
      // at once as the guest it now is).
      let bye = {};
      try { bye = JSON.parse(ev.data) || {}; } catch (e) { /* a bye all the same */ }
      source.close();
      for (const fn of byeListeners) fn(bye);
      if (bye.why === "web-off") {
        off = true;
        setConn("off", "web off");
        boxNote((bye.text || "The web was switched off on the box") +
                ". This page comes back by itself when the web is on again.");
        setTimeout(connect, 5000);
      } else {
        connect();
      }
    });
    source.addEventListener("frame", (ev) => {
      try { showFrame(JSON.parse(ev.data)); } catch (e) { /* the next one comes */ }
    });
    source.onmessage = (ev) => {
      let s;
      try { s = JSON.parse(ev.data); } catch (e) { return; }
      // One connection delivers snapshots in order; after a reconnect the first one is the
      // box's state now (even when a restarted box counts from a lower seq).
      setConn("live", "live");
      render(s);
    };
    source.onerror = () => {
      if (off) {  // the web is off: the page said so; look again every 5 s, quietly
        source.close();
        setTimeout(connect, 5000);
        return;
      }
      setConn("down", "reconnecting…");
      if (source.readyState === EventSource.CLOSED) {
        // The browser gave up (e.g. an error page while the box restarted): start again.
        setTimeout(connect, retry);
        retry = Math.min(retry * 2, 5000);
      }
    };
  }

  function start() {
    const initial = document.getElementById("initial");
    if (initial) {
      try {
        const s = JSON.parse(initial.textContent || "null");
        if (s) render(s);
      } catch (e) { /* the stream brings it */ }
    }
    // /tv-preview (body "still"): no stream; it draws the snapshots it is shown (`show`).
    if (!document.body.classList.contains("still")) connect();
    let fitTimer = 0;
    window.addEventListener("resize", () => {
      clearTimeout(fitTimer);
      // A TV is refitted at once (it is resized rarely, and a test resizes it often).
      fitTimer = setTimeout(() => {
        if (snap) { renderTurn(snap); if (TV) fitClock(); else { renderHistory(snap); fitRounds(); } }
      }, TV ? 0 : 100);
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();

  return {
    h, chip, fill, ringMark,
    get snapshot() { return snap; },
    onRender(fn) { listeners.push(fn); if (snap) fn(snap); },
    onFrame(fn) {
      frameListeners.push(fn);
      const img = document.getElementById("frame-img");
      if (img && img.getAttribute("src")) fn(img.getAttribute("src"));
    },
    onConnect(fn) { connectListeners.push(fn); },
    onBye(fn) { byeListeners.push(fn); },
    redraw() { if (snap) render(snap); },  // the page's own state changed (paired or not)
    show(s) { render(s); },  // a snapshot from elsewhere than the stream (/tv-preview)
    // A new stream (after pairing, so the box knows it as this phone's and can tell it when
    // the phone is forgotten).
    reconnect() { connect(); },
    refreshFrame() {
      // After a press the box draws once its queue is empty: fetch now and once more a moment
      // later, so a press that changed only the screen (a menu) shows too.
      const load = () => {
        const img = document.getElementById("frame-img");
        if (img && snap && snap.frame) img.src = snap.frame + (snap.frame.includes("?") ? "&" : "?") + "t=" + Date.now();
      };
      load();
      setTimeout(load, 300);
    },
  };
})();
