// The pairing landing (/J/{code}): post the code, then leave the URL that holds it.
"use strict";
(function () {
  // The six digits of the link, or {wrong: what it holds instead} (pages.py pair_landing).
  const data = JSON.parse(document.getElementById("pair-data").textContent || "null");
  const code = typeof data === "string" ? data : null;
  const status = document.getElementById("pair-status");
  const help = document.getElementById("pair-help");
  const again = document.getElementById("pair-again");
  // The code must not stay in the address bar or the history, whatever happens next.
  history.replaceState(null, "", "/control");

  // The same words as /control's pairing form (control.js codeProblem).
  function codeProblem(code) {
    const v = String(code).trim();
    if (!v) return "Type the 6 digits the box shows under Pair a phone";
    if (!/^[0-9]+$/.test(v)) return "The code is 6 digits (0-9), not " + v;
    if (v.length !== 6) return "The code is 6 digits; this one has " + v.length;
    return "";
  }

  function fail(text) {
    status.textContent = text;
    status.dataset.state = "error";
    help.hidden = false;
    again.hidden = false;
  }

  async function pair(value) {
    // A code that is not 6 digits is said as that (the box would answer "no valid code").
    const wrong = codeProblem(value);
    if (wrong) { fail(wrong); return; }
    status.textContent = "Checking the code…";
    status.dataset.state = "working";
    let res;
    try {
      res = await fetch("/api/pair", {
        method: "POST", credentials: "same-origin",
        headers: {"Content-Type": "application/json"},
        body: JSON.stringify({code: String(value)}),
      });
    } catch (e) {
      fail("The box does not answer: is this phone on the table's Wi-Fi?");
      return;
    }
    if (res.ok) {
      status.textContent = "Paired. Opening the controls…";
      status.dataset.state = "ok";
      location.replace("/");
      return;
    }
    let why = "";
    try { why = (await res.json()).error || ""; } catch (e) { /* not JSON */ }
    if (res.status === 429) {
      fail("Too many wrong codes: pairing is locked for 30 seconds. Then use the new code the box shows.");
    } else if (res.status === 403) {
      fail("That code did not work: " + (why || "it is wrong or has expired") +
           ". A code works once, for 5 minutes.");
    } else {
      fail("Pairing failed: " + (why || ("HTTP " + res.status)));
    }
  }

  again.addEventListener("submit", (ev) => {
    ev.preventDefault();
    pair(document.getElementById("pair-code").value.trim());
  });
  if (code) {
    pair(code);
  } else {
    const wrong = data && data.wrong ? codeProblem(data.wrong) : "";
    fail(wrong ? "This link's code is wrong. " + wrong + "." : "This link holds no code.");
  }
})();
