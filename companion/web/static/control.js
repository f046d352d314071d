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
  let kinds = null;
  let roster = [];
  let actionsKey = "";

  const COLOR_FACES = ["red", "orange", "yellow", "green", "blue", "logo"];
  const SHAPE_FACES = ["square", "circle", "star", "cross", "pentagon", "logo"];
  const FLOWER_COLORS = ["red", "orange", "yellow", "green", "blue"];
  const CHAOS_COLORS = ["red", "orange", "green", "blue"];
  const DROP_COLORS = ["red", "orange", "yellow", "green", "blue", "indigo", "violet"];

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
  function rendered(seq) {
    // Resolves once the snapshot `seq` (or a later one) has rendered, or after 3 s.
    return new Promise((resolve) => {
      if (shownSeq() >= seq) { resolve(); return; }
      const t0 = Date.now();
      const wait = () => (shownSeq() >= seq || Date.now() - t0 > 3000) ? resolve() : setTimeout(wait, 30);
      wait();
    });
  }

  async function call(method, path, body) {
    showError("");
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
      if (res.status === 401) {
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
  async function post(path, body, control) {
    // `control` (a button or a form) is disabled until the answer, and the snapshot with the
    // change, are in: a second tap cannot send the same change twice.
    const els = !control ? [] : control.tagName === "FORM"
      ? [...control.querySelectorAll("button, input, select, textarea")].filter((e) => !e.disabled)
      : control.disabled ? null : [control];
    if (els === null) return null;  // already waiting for its answer
    for (const e of els) { e.disabled = true; busy.add(e); }
    try {
      const r = await call("POST", path, {...(body || {}), seq: shownSeq()});
      if (r && typeof r.seq === "number") await rendered(r.seq);
      return r;
    } finally {
      for (const e of els) { e.disabled = false; busy.delete(e); }
      if (Table.snapshot) onSnapshot(Table.snapshot);  // undo/redo: as the game allows
    }
  }

  async function send(event, control) {
    const r = await post("/api/action", {event}, control);
    if (r) Table.refreshFrame();
    return r;
  }

  // --- small form helpers -------------------------------------------------------------------
  function select(name, options, value) {
    return h("select", {name, "aria-label": name},
      options.map((o) => {
        const [v, label] = Array.isArray(o) ? o : [o, o];
        return h("option", {value: String(v), text: String(label), selected: String(v) === String(value)});
      }));
  }
  function seatOptions(s, filter) {
    return s.players.map((n, k) => [k, n]).filter(([k]) => !filter || filter(k));
  }
  function number(name, min, max, value) {
    return h("input", {type: "number", name, min: String(min), max: String(max), value: String(value),
                       inputMode: "numeric", "aria-label": name, required: true});
  }
  function button(label, onclick, cls) {
    const b = h("button", {type: "button", class: cls || "", text: label});
    b.addEventListener("click", onclick);
    return b;
  }
  function quick(label, event) {
    const b = button(label, () => send(event, b));
    return b;
  }
  // A form's own check failed: say what to fix in plain words and put the cursor there.
  class FieldError extends Error {
    constructor(input, text) { super(text); this.input = input; }
  }
  function form(title, kids, submitLabel, onsubmit, name) {
    const f = h("form", {"data-form": name || title}, h("h3", {text: title}), kids,
                h("button", {type: "submit", text: submitLabel}));
    // The browser's own check (a number past its max) stops the submit before it happens:
    // an older error line would then still speak of the last try. Clear it.
    f.addEventListener("invalid", () => showError(""), true);
    f.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      for (const el of f.querySelectorAll("[aria-invalid]")) el.removeAttribute("aria-invalid");
      let event;
      try { event = onsubmit(f); } catch (e) {
        if (!(e instanceof FieldError)) throw e;
        showError(e.message);
        if (e.input) { e.input.setAttribute("aria-invalid", "true"); e.input.focus(); }
        return;
      }
      if (event) {
        const ok = await send(event, f);
        if (ok) f.dataset.sent = String(Date.now());
      }
    });
    return f;
  }
  function field(f, name) { return f.elements[name]; }
  function int(f, name) { return parseInt(field(f, name).value, 10); }
  function seatInts(s, f, name, what) {
    // Every player's number from a perSeat grid; an empty or bad one is named.
    return s.players.map((n, k) => {
      const input = field(f, name + k);
      const v = input.value.trim();
      if (!/^\d+$/.test(v)) throw new FieldError(input, "Enter " + n + "'s " + what + " (a whole number)");
      return parseInt(v, 10);
    });
  }
  function confirmButton(label, event) {
    // Two taps instead of a dialog: the first arms the button, the second sends.
    const b = button(label, async () => {
      if (b.dataset.armed) { delete b.dataset.armed; b.textContent = label; await send(event, b); return; }
      b.dataset.armed = "1";
      b.textContent = "Tap again: " + label;
      setTimeout(() => { delete b.dataset.armed; b.textContent = label; }, 4000);
    });
    return b;
  }
  function active(s, k) { return !((s.state || {}).eliminated || []).includes(k); }
  function perSeat(s, name, min, max, value) {
    return h("div", {class: "seat-nums"}, s.players.map((n, k) => [
      h("label", {for: name + k, text: n}),
      Object.assign(number(name + k, min, max, value), {id: name + k}),
    ]));
  }

  // --- each kind's own actions --------------------------------------------------------------
  const ACTIONS = {};

  ACTIONS["penny-badger"] = (s) => {
    const st = s.state;
    const others = seatOptions(s, (k) => k !== st.current && active(s, k));
    return [
      h("div", {class: "quick"}, quick("Pass (1 penny to the bank)", {type: "pass"})),
      form("Claim", [
        h("label", {}, "Cards claimed ",
          select("cards", [[1, "1 (wild)"], 2, 3, 4, 5, 6, 7, [8, "8 (the whole bank)"]], 2)),
        h("fieldset", {}, h("legend", {text: "Challenged by"}),
          others.length ? others.map(([k, n]) => h("label", {class: "inline"},
            h("input", {type: "checkbox", name: "challenger", value: String(k)}), n))
            : h("p", {class: "note", text: "nobody can challenge"})),
        h("fieldset", {}, h("legend", {text: "The revealed cards (only when challenged)"}),
          h("label", {class: "inline"}, h("input", {type: "radio", name: "truthful", value: "true"}), "true"),
          h("label", {class: "inline"}, h("input", {type: "radio", name: "truthful", value: "false"}), "a bluff")),
      ], "Settle the claim", (f) => {
        const challengers = [...f.querySelectorAll("input[name=challenger]:checked")].map((i) => +i.value);
        const t = f.querySelector("input[name=truthful]:checked");
        const event = {type: "claim", cards: int(f, "cards"), challengers};
        if (challengers.length) {
          if (!t) {
            throw new FieldError(f.querySelector("input[name=truthful]"),
                                 "Challenged: say whether the revealed cards were true or a bluff");
          }
          event.truthful = t.value === "true";
        }
        return event;
      }, "claim"),
    ];
  };

  function parseSets(input, who) {
    const text = input.value;
    const parts = text.trim() ? text.trim().split(/[\s,+]+/) : [];
    const sets = parts.map((p) => Number(p));
    if (sets.some((n) => !Number.isInteger(n) || n < 0)) {
      throw new FieldError(input, who + "'s sets: the pigs in each set as whole numbers, e.g. 3 3 2");
    }
    const small = sets.find((n) => n < 2);
    if (small !== undefined) throw new FieldError(input, who + "'s sets: a set has 2 or more pigs, not " + small);
    return sets;
  }
  ACTIONS["pig-farm"] = (s) => {
    const st = s.state;
    const faceSel = select("face", COLOR_FACES, "red");
    const dieSel = select("die", [["colors", "Colors die"], ["shapes", "Shapes die"]], "colors");
    dieSel.addEventListener("change", () => {
      faceSel.replaceChildren(...(dieSel.value === "colors" ? COLOR_FACES : SHAPE_FACES)
        .map((v) => h("option", {value: v, text: v})));
    });
    return [
      form("Sell the farm: " + s.players[st.current] + " sells", [
        h("p", {class: "note", text: "Each hand: pigs in each set (e.g. 3 3 2) and pigs in no set."}),
        h("div", {class: "hand"}, h("b", {text: "Player"}), h("b", {text: "Sets"}), h("b", {text: "Unmatched"})),
        s.players.map((n, k) => h("div", {class: "hand"},
          h("label", {for: "sets" + k, text: n + (k === st.current ? " (sells)" : "")}),
          h("input", {id: "sets" + k, name: "sets" + k, placeholder: k === st.current ? "3 3 2" : "2 2",
                      "aria-label": n + " sets", inputMode: "text"}),
          number("unmatched" + k, 0, 99, 0))),
      ], "Score the round", (f) => {
        const seller = s.players[st.current];
        const hands = s.players.map((n, k) => ({sets: parseSets(field(f, "sets" + k), n),
                                                 unmatched: int(f, "unmatched" + k) || 0}));
        if (hands[st.current].sets.length < 3) {
          throw new FieldError(field(f, "sets" + st.current), seller + " sold the farm (it is " + seller +
            "'s turn), so " + seller + "'s sets need at least 3 sets, e.g. 3 3 2. If someone else sold, " +
            "give them the turn first (Skip to)");
        }
        return {type: "sell", hands};
      }, "sell"),
      form("Butcher", [
        h("div", {class: "row"}, dieSel, faceSel),
        h("label", {class: "inline"}, h("input", {type: "checkbox", name: "deal"}),
          "dealt at the start of the round, to"),
        select("player", seatOptions(s), st.current),
      ], "Record the butcher", (f) => {
        const event = {type: "butcher", die: field(f, "die").value, face: field(f, "face").value};
        if (field(f, "deal").checked) { event.deal = true; event.player = int(f, "player"); }
        return event;
      }, "butcher"),
    ];
  };

  function dealerForm(s) {
    // After a round is scored the box asks who deals the next one (the snapshot's "ask"):
    // the phone asks too. The player after the dealer, in the current direction, goes first.
    const st = s.state;
    const after = (dealer) => {
      for (let i = 1; i <= s.players.length; i++) {
        const k = ((dealer + st.direction * i) % s.players.length + s.players.length) % s.players.length;
        if (active(s, k)) return k;
      }
      return dealer;
    };
    const sel = select("dealer", seatOptions(s), s.ask.suggested);
    const note = h("p", {class: "note"});
    const say = () => { note.textContent = s.players[after(parseInt(sel.value, 10))] + " goes first"; };
    sel.addEventListener("change", say);
    say();
    const f = form("Next round: who deals?", [h("label", {}, "Dealer ", sel), note], "Deals",
                   (f) => ({type: "first", player: after(int(f, "dealer"))}), "dealer");
    f.classList.add("ask");
    return f;
  }

  ACTIONS["chaos"] = (s) => {
    const st = s.state;
    const ask = s.ask && s.ask.kind === "dealer" ? [dealerForm(s)] : [];
    const colorForm = h("form", {"data-form": "color"}, h("h3", {text: "Color cards"}),
      h("label", {}, "Color ", select("color", CHAOS_COLORS, st.color || "red")));
    const colorButton = (label, type) => {
      const b = button(label, () => send({type, color: colorForm.elements.color.value}, b));
      return b;
    };
    colorForm.append(h("div", {class: "quick"}, colorButton("Pick a Color", "pick_color"),
      colorButton("Draw 4", "draw_four"), colorButton("Color Dump", "color_dump")));
    return [
      ...ask,
      h("div", {class: "quick"},
        quick("Take the Draw 4 stack" + (st.draw_stack ? " (" + st.draw_stack + ")" : ""), {type: "take_draw_four"}),
        quick("Two Train", {type: "two_train"}),
        quick("Take the train" + (st.train ? " (" + st.train + ")" : ""), {type: "take_train"})),
      colorForm,
      form("Swap Hands", [h("div", {class: "row"}, select("a", seatOptions(s), st.current),
                                                   select("b", seatOptions(s), (st.current + 1) % s.players.length))],
           "Swap", (f) => ({type: "swap_hands", players: [int(f, "a"), int(f, "b")]}), "swap"),
      form("Round points", [h("p", {class: "note", text: "Points left in each hand; 0 for who went out."}),
                            perSeat(s, "points", 0, 999, 0)],
           "Score the round", (f) => {
             const points = seatInts(s, f, "points", "points");
             if (!points.includes(0)) {
               throw new FieldError(field(f, "points0"), "Round points: enter 0 for the player who went out");
             }
             return {type: "round_points", points};
           }, "round_points"),
    ];
  };

  ACTIONS["drop-rainbow"] = (s) => {
    const st = s.state;
    const colors = (s.rules && s.rules.colors) || DROP_COLORS;
    if (!st.top) {
      return [form("Reveal the first card", [select("color", colors, colors[0])], "Reveal",
                   (f) => ({type: "reveal", color: field(f, "color").value}), "reveal")];
    }
    return [
      h("h3", {text: "Draw: the card turned up"}),
      h("div", {class: "quick"}, colors.concat(["rainbow"]).map((c) => {
        const b = quick(c, {type: "draw", color: c});
        b.classList.add("chip", "c-" + c.toLowerCase().replace(/[^a-z]/g, ""));
        return b;
      })),
      h("div", {class: "quick"}, quick("Bank the side cards (" + (st.side || []).length + ")", {type: "bank"})),
    ];
  };

  ACTIONS["dice-factor"] = (s) => {
    const st = s.state;
    const t = st.targets || {};
    return [
      form("Roll-off (8-sided, one per player)", [perSeat(s, "roll", 1, 8, 1)], "Record the roll-off",
           (f) => ({type: "roll_off", rolls: seatInts(s, f, "roll", "roll")}), "roll_off"),
      form("Targets", [h("div", {class: "row"}, select("colors", COLOR_FACES, t.colors || "red"),
                                                select("shapes", SHAPE_FACES, t.shapes || "star"))],
           "Set the targets", (f) => ({type: "roll", dice: {colors: field(f, "colors").value,
                                                             shapes: field(f, "shapes").value}}), "targets"),
      form("8-sided die (turn option 3)", [select("d8", [1, 2, 3, 4, 5, 6, 7, 8], 1)], "Record",
           (f) => ({type: "roll", dice: {d8: int(f, "d8")}}), "d8"),
      form("Trade hands with", [select("player", seatOptions(s, (k) => k !== st.current), (st.current + 1) % s.players.length)],
           "Trade", (f) => ({type: "trade_hands", player: int(f, "player")}), "trade"),
      form("Add a card to the hand limit of", [select("player", seatOptions(s), st.current)], "Add a card",
           (f) => ({type: "add_card", player: int(f, "player")}), "add_card"),
      form("Winner", [select("player", seatOptions(s), st.current)], "Wins",
           (f) => ({type: "win", player: int(f, "player")}), "win"),
    ];
  };

  ACTIONS["flower-power"] = () => [
    form("Petals", [h("div", {class: "row"}, select("color", FLOWER_COLORS, "red"),
                                             select("count", [1, 2, 3, 4, 5], 1))],
         "Place the petals", (f) => ({type: "petals", color: field(f, "color").value, count: int(f, "count")}),
         "petals"),
  ];

  ACTIONS["match-patch"] = (s) => [
    form("Mini-pip totals", [perSeat(s, "pips", 0, 99, 0)], "Record the pips",
         (f) => ({type: "pips", pips: seatInts(s, f, "pips", "mini-pip total")}), "pips"),
    form("A pair for", [select("player", seatOptions(s), s.state.current)], "Pair",
         (f) => ({type: "pair", player: int(f, "player")}), "pair"),
  ];

  ACTIONS["rainbow-rush"] = (s) => [
    h("div", {class: "quick"}, quick("Wild replaced a card", {type: "wild_replace"})),
    form("Winner", [select("player", seatOptions(s), s.state.current)], "Wins",
         (f) => ({type: "win", player: int(f, "player")}), "win"),
  ];

  ACTIONS["table"] = () => [];

  function common(s) {
    const st = s.state;
    const live = (k) => active(s, k);
    const die = (name, faces) => h("label", {class: "inline"}, name + " ",
      select(name, [["", "—"]].concat(faces), ""));
    return [
      h("h3", {text: "Turn"}),
      h("div", {class: "quick"}, quick("Next player", {type: "next"}), quick("Skip", {type: "skip"}),
        quick("Double skip", {type: "double_skip"}), quick("Reverse", {type: "reverse"}),
        quick("Reverse + skip", {type: "reverse_skip"})),
      form("Skip to", [select("player", seatOptions(s, (k) => live(k) && k !== st.current), "")], "Skip to",
           (f) => ({type: "skip_to", player: int(f, "player")}), "skip_to"),
      form("Who goes first", [select("player", seatOptions(s, live), st.current)], "Goes first",
           (f) => ({type: "first", player: int(f, "player")}), "first"),
      form("Record a roll (dice rolled by hand)", [h("div", {class: "row"}, die("colors", COLOR_FACES),
        die("shapes", SHAPE_FACES), die("d8", [1, 2, 3, 4, 5, 6, 7, 8]), die("d6", [1, 2, 3, 4, 5, 6]))],
        "Record the roll", (f) => {
          const dice = {};
          for (const k of ["colors", "shapes", "d8", "d6"]) {
            const v = field(f, k).value;
            if (v) dice[k] = k.startsWith("d") ? parseInt(v, 10) : v;
          }
          if (!Object.keys(dice).length) { showError("Pick at least one die"); return null; }
          return {type: "roll", dice};
        }, "roll"),
      h("div", {class: "quick"}, confirmButton("End the game", {type: "end"})),
    ];
  }

  function renderActions(s) {
    const box = document.getElementById("actions");
    const st = s.state || {};
    const key = JSON.stringify([s.game_id, s.game, s.players, st.over, st.current, st.eliminated,
                                s.game === "drop-rainbow" ? [st.top === null, (st.side || []).length] : 0,
                                s.game === "chaos" ? [st.draw_stack, st.train] : 0, s.ask]);
    if (key === actionsKey) return;
    actionsKey = key;
    if (!s.game) {
      box.replaceChildren(h("h2", {text: "Game actions"}),
                          h("p", {class: "note", text: "No game: start one below."}));
      return;
    }
    if (st.over) {
      box.replaceChildren(h("h2", {text: "Game over"}), playAgainButton(s),
                          h("p", {class: "note", text: "Or undo, or start another game below."}));
      return;
    }
    const own = (ACTIONS[s.game] || (() => []))(s);
    box.replaceChildren(...[h("h2", {text: (s.title || s.game) + ": " + s.players[st.current] + "'s turn"}),
                            own, common(s)].flat());
  }

  // --- play again ---------------------------------------------------------------------------
  function playAgainButton(s) {
    // One tap: the same game with the same players and house rules (the box moves the first
    // player one seat on). The box refuses it unless the game is over.
    const b = button("Play again: " + (s.title || s.game) + " with " + s.players.join(", "), async () => {
      const r = await post("/api/play-again", {}, b);
      if (r) { Table.refreshFrame(); window.scrollTo({top: 0}); }
    }, "go play-again");
    return b;
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
      button("↑", () => { if (li.previousElementSibling) li.previousElementSibling.before(li); refreshFirst(); }),
      button("✕", () => { li.remove(); refreshFirst(); })));
    ngPlayers.append(li);
    refreshFirst();
    return input;
  }
  function ruleField(key, value) {
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
    return h("label", {for: id}, key + " ", input);
  }
  function renderKind() {
    const info = kindInfo();
    if (!info) return;
    document.getElementById("ng-count").textContent = info.min_players + "-" + info.max_players + " players";
    document.getElementById("ng-house").textContent = (info.house_rules || []).join("\n") || "Turns and dice.";
    const entries = Object.entries(info.rules || {});
    ngRules.replaceChildren(h("legend", {text: "House rules"}),
      ...(entries.length ? entries.map(([k, v]) => ruleField(k, v)) : [h("p", {class: "note", text: "none"})]));
    while (ngPlayers.children.length < info.min_players) addPlayer("");
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
  });
  async function loadKinds() {
    if (kinds) return;
    kinds = await get("/api/kinds");
    if (!kinds) return;
    ngKind.replaceChildren(...kinds.map((k) => h("option", {value: k.kind, text: k.title || k.kind})));
    const cur = Table.snapshot && Table.snapshot.game;
    if (cur) ngKind.value = cur;
    renderKind();
  }
  ngKind.addEventListener("change", renderKind);
  const ngGo = document.querySelector("#new-game-form button[type=submit]");
  const ngGoLabel = ngGo.textContent;
  let ngTimer = 0;
  function armNewGame(title, id) {
    ngGo.dataset.armed = String(id);
    ngGo.classList.add("danger");
    ngGo.textContent = "End " + title + " #" + id + " and start";
    showNote(title + " #" + id + " is not finished: tap again to set it " +
             "aside (it can be resumed from Games) and start");
    clearTimeout(ngTimer);
    ngTimer = setTimeout(disarmNewGame, 8000);
  }
  function disarmNewGame() {
    clearTimeout(ngTimer);
    delete ngGo.dataset.armed;
    ngGo.classList.remove("danger");
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
    try { rules = readRules(); } catch (e) { showError(e.message); return; }
    const body = {game: ngKind.value, players, rules, first: parseInt(ngFirst.value || "0", 10)};
    // A game in progress is set aside (parked: it can be resumed), never on one tap: the first
    // tap asks, as the button "End Chaos #3 and start"; the second sends "replaces".
    // The game on the box, or the unfinished one left for the start menu (`left`).
    const s = Table.snapshot;
    const playing = s && s.game && !(s.state || {}).over;
    const open = playing ? s.game_id : (s && s.left ? s.left.game_id : null);
    if (open !== null) {
      if (String(open) !== ngGo.dataset.armed) {
        armNewGame(playing ? (s.title || s.game) : s.left.title, open);
        return;
      }
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
    document.getElementById("roster-text").value = roster.join("\n");
    document.getElementById("ng-roster").replaceChildren(...roster.map((n) =>
      button("+ " + n, () => {
        if (typedNames().some((t) => t.toLowerCase() === n.toLowerCase())) return;
        const empty = [...ngPlayers.querySelectorAll("input")].find((i) => !i.value.trim());
        if (empty) { empty.value = n; refreshFirst(); } else addPlayer(n);
      })));
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
    if (r) { roster = r.names || names; renderRoster(); }
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
      if (await post("/api/" + id, {}, b)) Table.refreshFrame();
    });
  }
  document.getElementById("pair-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const code = document.getElementById("pair-code").value.trim();
    const r = await call("POST", "/api/pair", {code});
    if (r) { document.getElementById("pair-code").value = ""; await checkPaired(); }
  });

  function setPaired(yes) {
    showPairBanner(!yes && !onControlPage);  // /control says it in its own pairing form
    const was = paired;  // asked again on every reconnect: load only when it changes
    paired = yes;
    document.body.dataset.paired = yes ? "yes" : "no";
    document.getElementById("control-box").hidden = !yes;
    document.getElementById("pair-box").hidden = yes || !onControlPage;
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
      setPaired(!!me.paired);
    } catch (e) {
      setPaired(false);
    }
  }
  function onSnapshot(s) {
    if (!paired) return;
    if (ngGo.dataset.armed && String(s.game_id) !== ngGo.dataset.armed) disarmNewGame();
    renderActions(s);
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

  Table.onRender(onSnapshot);
  Table.onFrame(showControlFrame);
  // On load and after every reconnect (the box restarted, or forgot its phones): ask again,
  // so a phone that is no longer paired never shows buttons that look as if they work.
  Table.onConnect(checkPaired);
  checkPaired();
})();
