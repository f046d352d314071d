// The "Design a game" page (/design; docs/web.md "Designing a game on a phone").
//
// The design is data (docs/designing-a-game.md): `d` below is its JSON, the one truth; the
// form is drawn from it (render) and every field writes back into it. As it changes, the box
// checks it (POST /api/design/check, read-only: a guest may ask) and answers with how the
// game starts, or with the refusal's words and the field they name, shown beside that field.
// Save, Delete: a paired phone's requests (POST /api/design/save, /api/design/delete), done
// by the box's app thread like any change. Plain JS, no build step, no inline styles (CSP).
"use strict";
(function () {
  const MAX_TALLIES = 4, MAX_MOVES = 12, MAX_EFFECTS = 6, CHECK_MS = 350;
  const DICE = [["colors", "Colors die"], ["shapes", "Shapes die"], ["d8", "8-sided"],
                ["d6", "6-sided"]];
  const TURN_MOVES = [["skip", "Skip the next player"], ["double_skip", "Skip two"],
                      ["reverse", "Reverse the direction"], ["reverse_skip", "Reverse and skip"],
                      ["skip_to", "Skip to a chosen player"]];
  const FIRST = [["picked", "The group picks"], ["roll_off", "Highest 8-sided roll (ties roll again)"],
                 ["next_seat", "The next seat each game"]];
  const DOES = [["add", "Add to a tally"], ["take", "Take from a tally"],
                ["pay", "Pay (money moves)"], ["end_turn", "End the turn"],
                ["skip", "Skip the next player"], ["reverse", "Reverse the direction"],
                ["roll", "Roll dice"]];
  const WHO = [["current", "the current player"], ["chosen", "a chosen player"],
               ["others", "every other player"]];
  const SIDES = [...WHO, ["pot", "the pot"]];
  const ENDS = [["reach", "First to reach a number"], ["rounds", "After a number of rounds"],
                ["pot_empty", "When the pot is empty"], ["one_left", "When one player is left"],
                ["group", "When the group ends it"]];
  const WINNER = [["most", "The most of a tally"], ["fewest", "The fewest of a tally"],
                  ["last_left", "The last player left"]];

  const $ = (id) => document.getElementById(id);
  let d = blank();           // the design being edited
  let editing = null;        // the saved design's id this is a new version of (Save)
  let paired = false;
  let players = [];          // the box's roster: the preview's players are named by it
  let checkTimer = 0, checkN = 0, lastCheck = null;
  let uid = 0;

  function blank() {
    return {format_version: 1, title: "", color: "#4a90d9", players: {min: 2, max: 8},
            tallies: [{name: "points", start: 0, floor: null, out_at: null, money: false}],
            pot: null, moves: [], round_score: null, turn_order: {moves: [], first: "picked"},
            dice: [], end: [{when: "group"}], winner: {by: "most", tally: "points"},
            house_rules: []};
  }

  // --- small DOM helpers ----------------------------------------------------------------------

  function h(tag, attrs, ...kids) {
    const el = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "text") el.textContent = v;
      else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
      else if (k === "value") el.value = v;
      else if (k === "checked") el.checked = !!v;
      else el.setAttribute(k, v === true ? "" : v);
    }
    for (const kid of kids.flat()) if (kid !== null && kid !== undefined) {
      el.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
    }
    return el;
  }

  // A field: its label, a short example or explanation under it, the control, and the place
  // its refusal is shown (`field`: the design's path as the box names it, e.g. "tallies[0].start").
  function field(label, help, control, fieldPath, extraClass) {
    const id = control.id || (control.id = "f" + (++uid));
    const helpId = id + "-help";
    if (help) control.setAttribute("aria-describedby", helpId);
    return h("div", {class: "field" + (extraClass ? " " + extraClass : ""), "data-field": fieldPath},
             h("label", {for: id, text: label}), control,
             help ? h("p", {class: "help", id: helpId, text: help}) : null);
  }

  function text(path, opts) {
    return h("input", {type: "text", value: show(get(path)), "data-path": path.join("."),
                       maxlength: (opts && opts.max) || 16, inputmode: opts && opts.numeric ? "numeric" : null,
                       oninput: (e) => {
                         const v = e.target.value;
                         put(path, opts && opts.parse ? opts.parse(v)
                                   : opts && opts.numeric ? num(v, opts.empty) : v);
                         if (opts && opts.oninput) opts.oninput(v);
                       },
                       onchange: opts && opts.onchange});
  }

  function select(path, options, onchange) {
    const el = h("select", {"data-path": path.join("."),
                            onchange: (e) => { put(path, e.target.value); if (onchange) onchange(); render(); }},
                 options.map(([v, label]) => h("option", {value: v, text: label})));
    el.value = get(path) === null || get(path) === undefined ? "" : String(get(path));
    return el;
  }

  function tick(label, checked, onchange, pathKey) {
    const box = h("input", {type: "checkbox", checked, "data-path": pathKey,
                            onchange: (e) => { onchange(e.target.checked); render(); }});
    return h("label", {class: "inline"}, box, label);
  }

  function button(label, onclick, cls) {
    return h("button", {type: "button", class: cls || null, text: label,
                        onclick: (e) => { onclick(e); render(); }});
  }

  function show(v) { return v === null || v === undefined ? "" : String(v); }

  // A typed number: "" is `empty` (null: none), a whole number is a number, anything else
  // is sent as typed (the box says what is wrong with it, beside the field).
  function num(raw, empty) {
    const t = raw.trim();
    if (t === "") return empty === undefined ? null : empty;
    if (/^-?\d+$/.test(t)) return parseInt(t, 10);
    return t;
  }

  function amount(raw) {
    const t = raw.trim().toLowerCase();
    return t === "ask" ? "ask" : num(raw);
  }

  function get(path) { return path.reduce((o, k) => (o === null || o === undefined ? o : o[k]), d); }

  let untouched = true;  // a new design nobody has typed in yet (its empty title is no fault)

  function put(path, value) {
    untouched = false;
    let o = d;
    for (const k of path.slice(0, -1)) o = o[k];
    const last = path[path.length - 1];
    if (value === undefined) delete o[last]; else o[last] = value;
    scheduleCheck();
  }

  const tallyNames = () => d.tallies.map((t) => t.name).filter((n) => n && n.trim());
  const tallyOptions = () => tallyNames().map((n) => [n, n]);

  // --- the form ---------------------------------------------------------------------------

  // A name's "change" comes as its field loses focus: often because a finger is coming down
  // on a button ("Add a move"). Drawing the form again then would put a new button under the
  // finger, and the tap would be lost: so while a finger or the mouse is down, the form is
  // drawn again only once that tap is done (nothing moves under a finger: docs/web.md).
  let pressing = false;
  let renderDue = false;
  document.addEventListener("pointerdown", () => { pressing = true; }, true);
  const released = () => {
    pressing = false;
    if (renderDue) setTimeout(() => { if (renderDue) render(); }, 0);  // after the click
  };
  document.addEventListener("pointerup", released, true);
  document.addEventListener("pointercancel", released, true);
  // And a name's "change" comes while the focus is on its way to the next field (a tap, Tab,
  // a phone keyboard's Next, or a test's fill): the field it lands on is not yet the active
  // one, so a redraw then would put a new field in its place, unfocused, and what is typed
  // next would go nowhere (a tally's "Starts at" lost its value, issue 37). So the redraw
  // waits until the focus has landed (a task later), and then puts the person back in the
  // same field with the same selection (`render`).
  function renderSoon() {
    if (pressing) { renderDue = true; return; }
    renderDue = true;
    setTimeout(() => { if (renderDue) render(); }, 0);
  }

  function render() {
    renderDue = false;
    keepDraft();
    const was = document.activeElement;
    const active = was && was.getAttribute("data-path");
    // Where the caret or the selection was in a text field: the same field, drawn again from
    // the design (which every keystroke wrote), keeps it, so typing goes on where it was.
    const sel = was && was.tagName === "INPUT" && was.type === "text"
      ? [was.selectionStart, was.selectionEnd, was.selectionDirection || "none"] : null;
    const body = $("form-body");
    body.replaceChildren(
      section("The game", "game-h", [
        field("Title", "Its name in New game, up to 16 letters. E.g. Pairs to 6", text(["title"]), "title"),
        field("Colour", "Its colour in the lists", h("input", {type: "color", value: d.color || "#4a90d9",
              "data-path": "color", oninput: (e) => put(["color"], e.target.value)}), "color", "short"),
        h("div", {class: "pair-fields", "data-field": "players"},
          field("Fewest players", "2 to 16", text(["players", "min"], {numeric: true, max: 2, empty: undefined}),
                "players.min", "short"),
          field("Most players", "2 to 16", text(["players", "max"], {numeric: true, max: 2, empty: undefined}),
                "players.max", "short")),
      ]),
      section("What the box counts for each player", "tallies-h", [
        h("p", {class: "help", text: "Up to 4 tallies, each a number per player: points, pairs, coins, flowers…"}),
        ...d.tallies.map(tallyRow),
        d.tallies.length < MAX_TALLIES ? button("Add a tally", () => {
          d.tallies.push({name: "", start: 0, floor: null, out_at: null, money: false});
          scheduleCheck(); }) : null,
      ], "tallies"),
      section("The pot", "pot-h", [
        tick("A shared pot in the middle of the table", d.pot !== null && d.pot !== undefined, (on) => {
          d.pot = on ? {start: 0} : null; scheduleCheck(); }, "pot"),
        d.pot ? field("The pot starts with", "0 to 99999. E.g. 5 coins", text(["pot", "start"],
              {numeric: true, max: 5, empty: 0}), "pot.start", "short") : null,
      ], "pot"),
      section("Moves: the buttons a player presses", "moves-h", [
        h("p", {class: "help", text: "Up to 12 moves, each a list of effects done in order. E.g. \"Pair\": add 1 to pairs."}),
        ...d.moves.map(moveBox),
        d.moves.length < MAX_MOVES ? button("Add a move", () => {
          d.moves.push({name: "", effects: [addEffect()], ask: null}); scheduleCheck(); }) : null,
      ], "moves"),
      roundScoreSection(),
      section("Turns", "turns-h", [
        h("fieldset", {}, h("legend", {text: "Turn moves the game's menu offers (NEXT is always there)"}),
          TURN_MOVES.map(([v, label]) => tick(label, d.turn_order.moves.includes(v), (on) => {
            toggle(d.turn_order.moves, v, on); }, "turn_order.moves." + v))),
        field("Who goes first", "", select(["turn_order", "first"], FIRST), "turn_order.first"),
      ], "turn_order"),
      section("Dice", "dice-h", [
        h("p", {class: "help", text: "The dice the game uses (a move may roll some of them)."}),
        h("div", {class: "ticks", role: "group", "aria-labelledby": "dice-h"},
          DICE.map(([v, label]) => tick(label, d.dice.includes(v), (on) => { toggle(d.dice, v, on); }, "dice." + v))),
      ], "dice"),
      endSection(),
      section("Who wins", "winner-h", [
        field("The winner is", d.winner.by === "last_left" ? "" : "Ties share the win", select(["winner", "by"], WINNER, () => {
          if (d.winner.by === "last_left") delete d.winner.tally;
          else if (!d.winner.tally) d.winner.tally = tallyNames()[0] || ""; }), "winner"),
        d.winner.by !== "last_left" ? field("Of the tally", "", select(["winner", "tally"], tallyOptions()),
                                            "winner.tally") : null,
      ], "winner"),
      houseRulesSection(),
    );
    if (active) {
      const again = body.querySelector(`[data-path="${CSS.escape(active)}"]`);
      if (again) {
        again.focus();
        if (sel && again.type === "text" && sel[0] !== null) again.setSelectionRange(sel[0], sel[1], sel[2]);
      }
    }
    showErrors();
  }

  function section(title, id, kids, fieldPath) {
    return h("section", {class: "panel dsec", "aria-labelledby": id, "data-field": fieldPath || null},
             h("h2", {id, text: title}), kids);
  }

  function toggle(list, value, on) {
    const i = list.indexOf(value);
    if (on && i < 0) list.push(value);
    if (!on && i >= 0) list.splice(i, 1);
    scheduleCheck();
  }

  function tallyRow(t, i) {
    const path = ["tallies", i];
    // What named the tally names it still as it is renamed (the moves, the end, the winner);
    // the lists of tallies are drawn again once the name is done (change).
    let was = t.name || "";
    const name = text([...path, "name"], {
      oninput: (now) => { renameTally(was, now); was = now; },
      onchange: () => renderSoon()});
    return h("fieldset", {class: "row-box", "data-field": `tallies[${i}]`},
      h("legend", {text: `Tally ${i + 1}` + (t.name ? `: ${t.name}` : "")}),
      field("Name", "E.g. pairs, points, coins", name, `tallies[${i}].name`),
      h("div", {class: "pair-fields"},
        field("Starts at", "E.g. 0, or 10 coins", text([...path, "start"], {numeric: true, max: 5, empty: 0}),
              `tallies[${i}].start`, "short"),
        field("Never below", "Blank: no floor", text([...path, "floor"], {numeric: true, max: 5}),
              `tallies[${i}].floor`, "short"),
        field("Out at", "Blank: never out. E.g. 0 coins", text([...path, "out_at"], {numeric: true, max: 5}),
              `tallies[${i}].out_at`, "short")),
      tick("Money: it only moves by payments (never created)", t.money, (on) => {
        t.money = on; scheduleCheck(); }, `tallies.${i}.money`),
      d.tallies.length > 1 ? button(`Remove tally ${t.name || i + 1}`, () => {
        d.tallies.splice(i, 1); scheduleCheck(); }, "remove") : null);
  }

  function renameTally(old, now) {
    const same = (n) => typeof n === "string" && n.trim().toLowerCase() === old.trim().toLowerCase();
    for (const m of d.moves) for (const e of m.effects || []) if (same(e.tally)) e.tally = now;
    for (const e of d.end) if (same(e.tally)) e.tally = now;
    if (same(d.winner.tally)) d.winner.tally = now;
    if (d.round_score && same(d.round_score.tally)) d.round_score.tally = now;
    d.house_rules = d.house_rules.map((k) => k.toLowerCase() === `${old} start`.toLowerCase() ? `${now} start` : k);
    scheduleCheck();
  }

  function addEffect() {
    return {do: "add", tally: tallyNames()[0] || "", amount: 1, who: "current"};
  }

  function effectFor(kind) {
    if (kind === "add" || kind === "take") return {...addEffect(), do: kind};
    if (kind === "pay") return {do: "pay", amount: 1, from: "current", to: d.pot ? "pot" : "chosen"};
    if (kind === "roll") return {do: "roll", dice: [d.dice[0] || "d6"]};
    return {do: kind};
  }

  function moveBox(m, i) {
    const path = ["moves", i];
    const asks = m.ask !== null && m.ask !== undefined;
    return h("fieldset", {class: "row-box move", "data-field": `moves[${i}]`},
      h("legend", {text: `Move ${i + 1}` + (m.name ? `: ${m.name}` : "")}),
      field("Name on its button", "E.g. Pair, Penalty, Steal", text([...path, "name"],
            {onchange: () => renderSoon()}), `moves[${i}].name`),
      h("ol", {class: "effects"}, (m.effects || []).map((e, j) => effectRow(m, i, e, j))),
      (m.effects || []).length < MAX_EFFECTS ? button("Add an effect", () => {
        m.effects.push(addEffect()); scheduleCheck(); }) : null,
      tick("It asks for a number when played (an amount \"ask\")", asks, (on) => {
        m.ask = on ? {min: 1, max: 10} : null; scheduleCheck(); }, `moves.${i}.ask`),
      asks ? h("div", {class: "pair-fields", "data-field": `moves[${i}].ask`},
        field("From", "", text([...path, "ask", "min"], {numeric: true, max: 4}), `moves[${i}].ask.min`, "short"),
        field("To", "", text([...path, "ask", "max"], {numeric: true, max: 4}), `moves[${i}].ask.max`, "short")) : null,
      button(`Remove move ${m.name || i + 1}`, () => { d.moves.splice(i, 1); scheduleCheck(); }, "remove"));
  }

  function effectRow(m, i, e, j) {
    const path = ["moves", i, "effects", j];
    const f = `moves[${i}].effects[${j}]`;
    // A new kind of effect: its own fields, with their defaults (render follows).
    const kind = select([...path, "do"], DOES, () => { m.effects[j] = effectFor(m.effects[j].do); });
    const parts = [field("Does", "", kind, `${f}.do`)];
    if (e.do === "add" || e.do === "take") {
      parts.push(field("How many", "A number, or ask", text([...path, "amount"], {max: 4, parse: amount}),
                       `${f}.amount`, "short"));
      parts.push(field(e.do === "add" ? "To the tally" : "From the tally", "", select([...path, "tally"], tallyOptions()), `${f}.tally`));
      parts.push(field("Of", "", select([...path, "who"], WHO), `${f}.who`));
    } else if (e.do === "pay") {
      parts.push(field("How many", "A number, or ask", text([...path, "amount"], {max: 4, parse: amount}),
                       `${f}.amount`, "short"));
      parts.push(field("From", "", select([...path, "from"], SIDES), `${f}.from`));
      parts.push(field("To", "", select([...path, "to"], SIDES), `${f}.to`));
    } else if (e.do === "roll") {
      parts.push(h("div", {class: "ticks", role: "group", "aria-label": `Dice move ${i + 1} rolls`, "data-field": `${f}.dice`},
        DICE.map(([v, label]) => tick(label, (e.dice || []).includes(v), (on) => {
          e.dice = e.dice || []; toggle(e.dice, v, on); }, `moves.${i}.effects.${j}.dice.${v}`))));
    }
    if (m.effects.length > 1) parts.push(button("Remove this effect", () => { m.effects.splice(j, 1); scheduleCheck(); }, "remove"));
    return h("li", {class: "effect", "data-field": f}, parts);
  }

  function roundScoreSection() {
    const rs = d.round_score;
    return section("Round score", "round-h", [
      tick("Once a round, the group types a number per player", !!rs, (on) => {
        d.round_score = on ? {tally: tallyNames()[0] || "", min: -9999, max: 9999, when: "group"} : null;
        scheduleCheck(); }, "round_score"),
      rs ? field("Added to the tally", "", select(["round_score", "tally"], tallyOptions()), "round_score.tally") : null,
      rs ? h("div", {class: "pair-fields"},
        field("Lowest", "E.g. -50", text(["round_score", "min"], {numeric: true, max: 5}), "round_score.min", "short"),
        field("Highest", "E.g. 100", text(["round_score", "max"], {numeric: true, max: 5}), "round_score.max", "short")) : null,
      rs ? field("A round ends", "", select(["round_score", "when"], [["group", "When the group says so"],
        ["turns", "After one turn each"]]), "round_score.when") : null,
    ], "round_score");
  }

  function endSection() {
    const kids = [h("p", {class: "help", text: "One or more ways; the first that happens ends the game."})];
    for (const [when, label] of ENDS) {
      const i = d.end.findIndex((e) => e.when === when);
      const e = i >= 0 ? d.end[i] : null;
      const row = h("div", {class: "end-row", "data-field": i >= 0 ? `end[${i}]` : null},
        tick(label, !!e, (on) => {
          if (on) d.end.push(when === "reach" ? {when, tally: tallyNames()[0] || "", target: 10}
                             : when === "rounds" ? {when, rounds: 10} : {when});
          else d.end.splice(d.end.findIndex((x) => x.when === when), 1);
          scheduleCheck(); }, "end." + when));
      if (e && when === "reach") {
        row.append(h("div", {class: "pair-fields"},
          field("Of the tally", "", select(["end", i, "tally"], tallyOptions()), `end[${i}].tally`),
          field("The number", "E.g. 6", text(["end", i, "target"], {numeric: true, max: 5}), `end[${i}].target`, "short")));
      } else if (e && when === "rounds") {
        row.append(field("Rounds", "1 to 999", text(["end", i, "rounds"], {numeric: true, max: 3}), `end[${i}].rounds`, "short"));
      }
      kids.push(row);
    }
    return section("How it ends", "end-h", kids, "end");
  }

  function houseRulesSection() {
    const keys = [...tallyNames().map((n) => `${n} start`)];
    if (d.pot) keys.push("pot start");
    if (d.end.some((e) => e.when === "reach")) keys.push("target");
    if (d.end.some((e) => e.when === "rounds")) keys.push("rounds");
    d.house_rules = d.house_rules.filter((k) => keys.some((x) => x.toLowerCase() === k.toLowerCase()));
    return section("House rules", "house-h", [
      h("p", {class: "help", text: "What a New game may change, e.g. the coins everyone starts with."}),
      h("div", {class: "ticks", role: "group", "aria-labelledby": "house-h"},
        keys.map((k) => tick(k, d.house_rules.some((x) => x.toLowerCase() === k.toLowerCase()), (on) => {
          toggle(d.house_rules, k, on); }, "house_rules." + k))),
    ], "house_rules");
  }

  // --- the box's check: refusals beside their fields, or the preview ---------------------------

  // The design being typed is kept on this phone until it is saved (a phone reloads a tab
  // after its screen was locked): sessionStorage, this tab's own, never sent anywhere.
  const DRAFT = "chroma-design-draft";
  function keepDraft() {
    try { sessionStorage.setItem(DRAFT, JSON.stringify({design: d, editing})); } catch (e) { /* full or off */ }
  }
  function draft() {
    try { return JSON.parse(sessionStorage.getItem(DRAFT) || "null"); } catch (e) { return null; }
  }

  function scheduleCheck() {
    keepDraft();
    clearTimeout(checkTimer);
    checkTimer = setTimeout(runCheck, CHECK_MS);
  }

  async function runCheck() {
    const n = ++checkN;
    setCheck("waiting", "Checking…");
    let res, data = null;
    try {
      res = await fetch("/api/design/check", {method: "POST", credentials: "same-origin",
        headers: {"Content-Type": "application/json"}, body: JSON.stringify({design: d, players})});
      data = await res.json();
    } catch (e) {
      if (n === checkN) setCheck("bad", "The box does not answer: " + (e.message || e));
      return;
    }
    if (n !== checkN) return;  // the design changed meanwhile: its own check follows
    lastCheck = res.ok ? data : {ok: false, error: (data && data.error) || "HTTP " + res.status,
                                 field: (data && data.field) || ""};
    if (res.ok) {
      setCheck("ok", "The box can play this.");
      drawPreview(data);
      if (paired) drawFrame(n, data.design);
    } else if (untouched && (lastCheck.field || "") === "title") {
      // A new design nobody has typed in yet: the first thing to do, not a fault (in red).
      setCheck("waiting", "Start with the game's title.");
      $("preview").replaceChildren();
      $("preview-frame").hidden = true;
      $("preview-tv").hidden = true;
      return;
    } else {
      setCheck("bad", "Not yet: " + lastCheck.error);
      $("preview").replaceChildren();
      $("preview-frame").hidden = true;
      $("preview-tv").hidden = true;
    }
    showErrors();
  }

  // The box's own first screen of the game (a paired phone's: the box draws it on its app
  // thread, as every frame), under the table.
  async function drawFrame(n, design) {
    const r = await json("POST", "/api/design/picture", {design, players, seq: null});
    if (n !== checkN) return;
    const img = $("preview-frame");
    if (r.ok && r.data.png) {
      img.src = "data:image/png;base64," + r.data.png;
      img.hidden = false;
      $("preview-frame-note").hidden = true;
      if (tvShown && tvShown.n === n) showTV({...tvShown.snapshot, frame: img.src}, n);  // on the TV too
    } else {
      img.hidden = true;
    }
  }

  function setCheck(state, words) {
    for (const el of [$("check-status"), $("bar-status")]) {
      el.dataset.state = state;
      el.textContent = words;
    }
  }

  // The Save bar's words, and what a tap on them shows: the preview, or the words in red.
  function setBar(state, words) {
    $("bar-status").dataset.state = state;
    $("bar-status").textContent = words;
  }

  // A jump: `el` scrolled into sight, clear of the Save bar (design.css: scroll-padding).
  function jump(el, block) {
    if (el && !el.hidden) el.scrollIntoView({block: block || "nearest"});
  }

  function refusalShown() {
    return document.querySelector("#form-body .field-error") ||
           ($("design-error").hidden ? null : $("design-error"));
  }

  $("bar-status").addEventListener("click", (e) => {
    e.preventDefault();  // no #fragment in the address: a reload starts at the top
    const bad = $("bar-status").dataset.state === "bad" && refusalShown();
    jump(bad || $("preview-box"), bad ? "center" : "start");
  });

  // The element that shows a refusal of `path`: the deepest one whose field the path is in.
  function home(path) {
    let best = null, bestLen = -1;
    for (const el of document.querySelectorAll("#form-body [data-field]")) {
      const f = el.getAttribute("data-field");
      const inside = path === f || path.startsWith(f + ".") || path.startsWith(f + "[");
      if (inside && f.length > bestLen) { best = el; bestLen = f.length; }
    }
    return best;
  }

  function showErrors() {
    for (const el of document.querySelectorAll("#form-body .field-error")) el.remove();
    for (const el of document.querySelectorAll("#form-body [aria-invalid]")) {
      el.removeAttribute("aria-invalid");
      const rest = (el.getAttribute("aria-describedby") || "").split(" ").filter((x) => x && x !== "field-error");
      if (rest.length) el.setAttribute("aria-describedby", rest.join(" ")); else el.removeAttribute("aria-describedby");
    }
    const top = $("design-error");
    top.hidden = true;
    if (!lastCheck || lastCheck.ok) return;
    const where = home(lastCheck.field || "");
    if (!where) {
      top.textContent = lastCheck.error;
      top.hidden = false;
      return;
    }
    // Not an alert: the check's status line says it once (role=status); the field's control
    // is marked invalid and described by the words.
    const p = h("p", {class: "field-error", id: "field-error", "data-for": lastCheck.field,
                      text: lastCheck.error});
    const control = where.classList.contains("field") ? where.querySelector("input, select") : null;
    if (control) {
      control.setAttribute("aria-invalid", "true");
      const described = (control.getAttribute("aria-describedby") || "").split(" ").filter((x) => x && x !== "field-error");
      control.setAttribute("aria-describedby", [...described, "field-error"].join(" "));
    }
    const legend = where.querySelector(":scope > legend, :scope > h2");
    if (legend) legend.after(p); else where.append(p);
  }

  function drawPreview(p) {
    const head = h("tr", {}, h("th", {scope: "col", text: "Player"}),
                   p.tallies.map((t) => h("th", {scope: "col", text: t.name})));
    const rows = p.players.map((name, s) => h("tr", {}, h("th", {scope: "row", text: name}),
                   p.tallies.map((t) => h("td", {text: String(t.values[s])}))));
    const swatch = h("span", {class: "swatch", "aria-hidden": "true"});
    swatch.style.background = p.color;  // CSSOM, not a style attribute (CSP)
    // replaceChildren writes a null as the text "null": what is left out is filtered out.
    $("preview").replaceChildren(...[
      h("p", {class: "preview-title"}, swatch, p.title),
      h("table", {class: "preview-table"}, h("caption", {class: "sr-only", text: "The table as the game starts"}),
        h("thead", {}, head), h("tbody", {}, rows)),
      p.pot !== null ? h("p", {class: "preview-pot", text: `The pot: ${p.pot}`}) : null,
      p.moves.length ? h("div", {class: "preview-moves", role: "group", "aria-label": "Its moves"},
                         p.moves.map((m) => h("span", {class: "chip", text: m}))) : null,
      h("p", {class: "note", text: `Who goes first: ${p.first}.`})].filter(Boolean));
    showTV(p.tv, checkN);
  }

  // How /tv shows the game as it starts: /tv-preview, /tv's own page and renderer (table.js)
  // in a frame, drawing the snapshot the check made of the new game (`p.tv`, the snapshot
  // the live one is) and, once the box drew it, the box's screen in it (drawFrame). The frame
  // is a TV's size (1280x720), scaled to the column; it is told by postMessage, on the box's
  // own origin, and says "ready" once it listens (as it starts, and when asked: "hello").
  const tvFrame = $("tv-frame");
  let tvReady = false;
  let tvShown = null;  // {snapshot, n}: what the frame draws (again once it is ready)

  function showTV(snapshot, n) {
    tvShown = {snapshot, n};
    $("preview-tv").hidden = false;
    fitTV();
    if (tvReady) tvFrame.contentWindow.postMessage(tvShown, location.origin);
  }

  function fitTV() {
    const w = $("tv-frame-box").clientWidth;
    if (w) tvFrame.style.setProperty("--scale", String(w / tvFrame.width));
  }

  window.addEventListener("message", (ev) => {
    if (ev.source !== tvFrame.contentWindow || ev.origin !== location.origin) return;
    if (ev.data && ev.data.ready) {
      tvReady = true;
      if (tvShown) tvFrame.contentWindow.postMessage(tvShown, location.origin);
    }
  });
  new ResizeObserver(fitTV).observe($("tv-frame-box"));
  tvFrame.contentWindow.postMessage({hello: true}, location.origin);  // it may be ready already

  // --- saved designs: list, edit, copy, share, delete, save ---------------------------------

  async function json(method, path, body) {
    let res, data = null;
    try {
      res = await fetch(path, {method, credentials: "same-origin",
        headers: body === undefined ? {} : {"Content-Type": "application/json"},
        body: body === undefined ? undefined : JSON.stringify(body)});
      data = await res.json();
    } catch (e) {
      return {ok: false, status: 0, data: {error: "The box does not answer: " + (e.message || e)}};
    }
    if (res.status === 401) setPaired(false);
    return {ok: res.ok, status: res.status, data: data || {error: "HTTP " + res.status}};
  }

  function setPaired(yes) {
    paired = yes;
    $("pair-banner").hidden = yes;
    for (const el of document.querySelectorAll("#save, .saved-list .needs-pairing")) el.disabled = !yes;
  }

  function setEditing(id, title) {
    editing = id;
    $("editing").textContent = id === null ? "A new design." : `Editing "${title}": Save keeps a new version of it.`;
    keepDraft();  // a reload brings back what it is a version of too
  }

  // A design on the page that is a kept design already (a draft brought back by a reload, a
  // file imported again) is that design: editing it, not a new one. The same content is the
  // same kind: the check's kind of it at a kept design's version is that design's kind.
  async function recognise() {
    const title = (d.title || "").trim().toLowerCase();
    if (editing !== null || !title) return;
    const r = await json("GET", "/api/designs");
    const list = r.ok ? r.data.designs : [];
    const was = JSON.stringify(d);
    for (const s of list.filter((x) => x.title.toLowerCase() === title)) {
      const c = await json("POST", "/api/design/check", {design: {...d, version: s.version}, players});
      if (JSON.stringify(d) !== was || editing !== null) return;  // changed meanwhile
      if (c.ok && c.data.kind === s.kind) {
        d.version = s.version;
        setEditing(s.id, s.title);
        return;
      }
    }
  }

  function normalise(design) {
    // Every part the form draws, present (a design file may leave some out).
    d = design;
    for (const key of ["turn_order", "winner", "players"]) d[key] = d[key] || {};
    d.turn_order.moves = d.turn_order.moves || [];
    for (const key of ["tallies", "moves", "dice", "end", "house_rules"]) d[key] = d[key] || [];
    if (d.pot === undefined) d.pot = null;
    if (d.round_score === undefined) d.round_score = null;
    for (const m of d.moves) { m.effects = m.effects || []; if (m.ask === undefined) m.ask = null; }
  }

  function load(design, id, title) {
    normalise(design);
    untouched = !d.title;
    setEditing(id, title);
    lastCheck = null;
    render();
    scheduleCheck();
    $("form-h").scrollIntoView({block: "start"});
    if (id === null) recognise();
  }

  async function listSaved() {
    const r = await json("GET", "/api/designs");
    const list = r.ok ? r.data.designs : [];
    $("saved-none").hidden = list.length > 0;
    $("saved-list").replaceChildren(...list.map((s) => {
      const swatch = h("span", {class: "swatch", "aria-hidden": "true"});
      swatch.style.background = s.color;
      let armed = 0;
      const del = h("button", {type: "button", class: "danger needs-pairing", text: "Delete",
        "aria-label": `Delete ${s.title}`, onclick: async () => {
          if (!armed) {  // two taps: the first says what the second does
            del.textContent = "Tap again: delete";
            armed = setTimeout(() => { armed = 0; del.textContent = "Delete"; }, 4000);
            return;
          }
          clearTimeout(armed);
          const r = await json("POST", "/api/design/delete", {id: s.id, seq: null});
          $("save-status").textContent = r.ok ? `Deleted "${s.title}": New game no longer lists it (games played with it keep it).`
                                              : r.data.error;
          if (r.ok && editing === s.id) setEditing(null);
          listSaved();
        }});
      del.disabled = !paired;
      return h("li", {class: "saved", "data-id": s.id},
        h("span", {class: "saved-title"}, swatch, s.title, h("small", {text: ` version ${s.version}`})),
        h("span", {class: "saved-buttons"},
          h("button", {type: "button", text: "Edit", "aria-label": `Edit ${s.title}`, onclick: () => open(s, false)}),
          h("button", {type: "button", text: "Copy", "aria-label": `Copy ${s.title}`, onclick: () => open(s, true)}),
          h("button", {type: "button", text: "Share", "aria-label": `Share ${s.title}`, onclick: () => share(s)}),
          del));
    }));
  }

  async function open(s, copy) {
    const r = await json("GET", `/api/designs/${s.id}.json`);
    if (!r.ok) { $("save-status").textContent = r.data.error; return; }
    const design = r.data;
    if (copy) {
      design.title = ("Copy of " + design.title).slice(0, 16).trim();
      design.version = 1;
      load(design, null);
    } else {
      load(design, s.id, s.title);
    }
  }

  function share(s) {
    const link = `${location.origin}/api/designs/${s.id}.json`;
    $("share-title").textContent = `Share "${s.title}"`;
    $("share-link").href = link;
    $("share-link").textContent = link;
    $("share-qr").src = `/api/designs/${s.id}.png`;
    $("share").hidden = false;
    jump($("share"));  // below the list, perhaps under the Save bar: in sight, above it
  }

  async function save() {
    const body = {design: d, seq: null};
    if (editing !== null) body.replaces = editing;
    const btn = $("save");
    btn.disabled = true;
    const r = await json("POST", "/api/design/save", body);
    btn.disabled = !paired;
    const status = $("save-status");
    if (r.ok) {
      const s = r.data.design;
      d.version = s.version;
      setEditing(s.id, s.title);
      // The same design kept already (the box compares the content): nothing new is kept.
      status.textContent = r.data.unchanged
        ? `Already kept as "${s.title}" (version ${s.version}): nothing new to save.`
        : `Saved "${s.title}" (version ${s.version}): New game lists it now.`;
      setBar("ok", r.data.unchanged ? `Already kept as "${s.title}".` : `Saved "${s.title}", version ${s.version}.`);
      listSaved();
    } else {
      status.textContent = "Not saved: " + r.data.error;
      setBar("bad", "Not saved: " + r.data.error);
      // A refusal names its field first ("title: ..."): shown beside it too, and in sight.
      const named = /^([a-z_]+(?:\[\d+\])?(?:\.[a-z_]+(?:\[\d+\])?)*): /.exec(r.data.error || "");
      if (r.status === 422 && named) {
        lastCheck = {ok: false, error: r.data.error, field: named[1]};
        showErrors();
        jump(refusalShown(), "center");
      }
    }
  }

  // --- import: a file, or a link to another box's design (fetched by this phone) -------------

  async function importFrom(textOrDesign, where) {
    const body = typeof textOrDesign === "string" ? {toml: textOrDesign} : {design: textOrDesign};
    const r = await json("POST", "/api/design/check", body);
    const status = $("import-status");
    if (!r.ok) { status.textContent = `Not imported (${where}): ${r.data.error}`; return; }
    status.textContent = `Imported "${r.data.title}" from ${where}: check it, then Save.`;
    load(r.data.design, null);
  }

  function parsed(textValue) {
    try { const v = JSON.parse(textValue); return v && typeof v === "object" && !Array.isArray(v) ? v : null; }
    catch (e) { return null; }
  }

  $("import-file").addEventListener("change", async (e) => {
    const file = e.target.files && e.target.files[0];
    if (!file) return;
    if (file.size > 16 * 1024) { $("import-status").textContent = "That file is too large to be a design."; return; }
    const t = await file.text();
    await importFrom(parsed(t) || t, file.name);
  });

  $("import-link-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const url = $("import-link").value.trim();
    const status = $("import-status");
    if (!/^https?:\/\//i.test(url)) { status.textContent = "A link starts with http://"; return; }
    status.textContent = "Fetching…";
    let t;
    try {
      const res = await fetch(url, {credentials: "omit"});
      if (!res.ok) throw new Error("HTTP " + res.status);
      t = await res.text();
    } catch (err) {
      status.textContent = `The link did not answer (${err.message || err}).`;
      return;
    }
    await importFrom(parsed(t) || t, "the link");
  });

  $("save").addEventListener("click", save);
  $("new-design").addEventListener("click", () => load(blank(), null));
  $("design-form").addEventListener("submit", (e) => e.preventDefault());

  // --- start ------------------------------------------------------------------------------

  (async function start() {
    const kept = draft();  // what was being typed before the tab was reloaded
    if (kept && kept.design && typeof kept.design === "object" && !Array.isArray(kept.design)) {
      normalise(kept.design);
      untouched = !d.title;
      setEditing(Number.isInteger(kept.editing) ? kept.editing : null, d.title || "");
    } else {
      setEditing(null);
    }
    render();
    scheduleCheck();
    const [me, roster] = await Promise.all([json("GET", "/api/me"), json("GET", "/api/roster")]);
    // The table's own names (New game's roster) in the preview, the first 16 at most.
    players = roster.ok && Array.isArray(roster.data.names) ? roster.data.names.slice(0, 16) : [];
    setPaired(!!(me.ok && me.data.paired));
    scheduleCheck();  // with the roster's names (and, paired, the box's picture too)
    listSaved();
    recognise();  // a draft that was saved: editing that design
  })();
})();
