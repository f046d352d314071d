// Who is favourite (docs/web.md): the snapshot's `favourite`, made on the box from the ratings
// before the game (companion/app/favourite.py), as a line under whose turn it is on /, /control
// and /tv: each player's chance to win while the game goes on, the likeliest first ("Chance to
// win: Ann 41% · Ben 33% · ...", the favourite in green; past SHOWN players the first few and
// "N more": a TV cannot scroll); at game over how it went ("Upset! Cy won at 12%").
// Hidden when the snapshot has none (turned off in the config, most players new). The line is
// drawn in Table's render, before the TV is fitted, so the TV fits with it.
"use strict";

(function () {
  // Players named; with more, the SHOWN - 1 likeliest and "N more". The TV keeps the line to
  // one line, for the columns' height.
  const SHOWN = document.body.classList.contains("mode-tv") ? 4 : 6;

  function line() {
    let el = document.getElementById("favourite");
    if (el) return el;
    const sub = document.getElementById("turn-sub");
    if (!sub) return null;
    el = Table.h("p", {id: "favourite", class: "favourite", hidden: true});
    sub.after(el);
    return el;
  }

  function percent(c) {
    return Math.round(c * 100) + "%";
  }

  function render(s) {
    const el = line();
    if (!el) return;
    const f = s.game ? s.favourite : null;
    if (!f || !Array.isArray(f.chances) || f.chances.length !== s.players.length) {
      el.hidden = true;
      el.replaceChildren();
      delete el.dataset.upset;
      return;
    }
    const top = new Set(f.favourites || []);
    const kids = [];
    if (f.verdict) {
      kids.push(Table.h("span", {class: "fav-verdict", text: f.verdict}));
    } else {
      kids.push(Table.h("span", {class: "fav-label", text: "Chance to win:"}));
      // The likeliest first (seat order on a tie).
      const seats = f.chances.map((c, i) => i).sort((a, b) => f.chances[b] - f.chances[a] || a - b);
      const named = seats.length > SHOWN ? seats.slice(0, SHOWN - 1) : seats;
      for (const i of named) {
        kids.push(Table.h("span", {class: "fav-seat" + (top.has(i) ? " top" : ""),
                                   text: s.players[i] + " " + percent(f.chances[i])}));
      }
      if (named.length < seats.length) {
        kids.push(Table.h("span", {class: "fav-more", text: (seats.length - named.length) + " more"}));
      }
    }
    el.replaceChildren(...kids);
    if (f.upset) el.dataset.upset = "true"; else delete el.dataset.upset;
    el.hidden = false;
  }

  Table.onRender(render);
})();
