// The match and replay pages, by keyboard and screen reader: after every change focus stays on the
// board and what happened is read out; arrow keys move over the Reversi board and step a replay; a DOS
// hand card shows which Center Row cards it can match and the sum so far. Everything works without
// this file too (plain forms, links and the server's marks); this only makes it quicker.
(function () {
  "use strict";

  // --- focus and announcements after a swap (own move or a live push) -----------------------------
  var remembered = null;

  function eventLines(root) {
    return Array.prototype.map.call((root || document).querySelectorAll("#match-body .events li"), function (li) {
      return li.textContent.trim();
    });
  }

  function remember() {
    var body = document.getElementById("match-body");
    var active = document.activeElement;
    remembered = {
      inside: !!(body && active && body.contains(active)),
      idle: !active || active === document.body,
      id: active && body && body.contains(active) ? active.id : "",
      lines: eventLines(),
      status: body ? (body.querySelector(".match-status") || {}).textContent || "" : "",
      version: body ? body.getAttribute("data-version") : null,
      // A re-render of the same state (a page that reconnects) must not undo what the player ticked.
      checked: body ? Array.prototype.map.call(body.querySelectorAll("input:checked[id]"), function (el) { return el.id; }) : [],
      chosen: body ? Array.prototype.map.call(body.querySelectorAll("select[id]"), function (el) { return [el.id, el.value]; }) : [],
    };
  }

  function keepTicks(body) {
    if (body.getAttribute("data-version") !== remembered.version) return false;
    remembered.checked.forEach(function (id) {
      var el = document.getElementById(id);
      if (el && body.contains(el)) el.checked = true;
    });
    remembered.chosen.forEach(function (pair) {
      var el = document.getElementById(pair[0]);
      if (el && body.contains(el)) el.value = pair[1];
    });
    return true;
  }

  function firstAction(body) {
    var area = body.querySelector(".board-area") || body;
    return area.querySelector(
      ".sq[tabindex='0'], button:not([disabled]):not([aria-disabled='true']), input:not([type='hidden']):not([disabled]), select:not([disabled])"
    );
  }

  function announce(text) {
    var region = document.getElementById("board-announcer");
    if (!region || !text) return;
    // Clear first, so the same words said twice are read twice.
    region.textContent = "";
    window.setTimeout(function () { region.textContent = text; }, 50);
  }

  function restore() {
    var body = document.getElementById("match-body");
    if (!body || !remembered) return;
    var same = keepTicks(body);
    setUpReversi(body);
    setUpDos(body);
    var before = remembered.lines;
    var after = eventLines();
    var fresh = after.filter(function (line, i) { return before.indexOf(line) === -1 || i >= before.length; });
    var status = (body.querySelector(".match-status") || {}).textContent || "";
    var notice = body.querySelector(".notice");
    var words = [];
    if (notice) words.push(notice.textContent.trim());
    words = words.concat(fresh.slice(-3));
    if (status.trim() !== remembered.status.trim()) words.push(status.trim().replace(/\s+/g, " "));
    announce(words.join(" "));
    if (remembered.inside || (remembered.idle && !same)) {
      var again = remembered.id && document.getElementById(remembered.id);
      var target = again && !again.disabled && body.contains(again) ? again : firstAction(body);
      if (!target) {
        target = body.querySelector(".board-area") || body;
        target.setAttribute("tabindex", "-1");
      }
      if (target.classList.contains("sq")) {
        Array.prototype.forEach.call(body.querySelectorAll(".board .sq"), function (sq) { sq.setAttribute("tabindex", "-1"); });
        target.setAttribute("tabindex", "0");
      }
      target.focus();
    }
    remembered = null;
  }

  document.addEventListener("htmx:beforeSwap", function (event) {
    if (event.detail.target && event.detail.target.id === "match-body") remember();
  });
  document.addEventListener("htmx:wsBeforeMessage", remember);
  document.addEventListener("htmx:afterSettle", function (event) {
    if (event.detail.elt && event.detail.elt.id === "match-body") restore();
  });
  document.addEventListener("htmx:wsAfterMessage", restore);

  // --- Reversi: one tab stop, arrow keys move over all 64 squares (roving tabindex) ------------------
  function setUpReversi(root) {
    var squares = root.querySelectorAll(".reversi .board .sq");
    if (!squares.length) return;
    var start = null;
    Array.prototype.forEach.call(squares, function (sq) {
      if (sq.disabled) {
        // Focusable, but not pressable: a reader can explore the whole board square by square.
        sq.disabled = false;
        sq.setAttribute("aria-disabled", "true");
      }
      sq.setAttribute("tabindex", "-1");
      if (!start && sq.getAttribute("aria-disabled") !== "true") start = sq;
    });
    (start || root.querySelector(".reversi .board .sq.last") || squares[0]).setAttribute("tabindex", "0");
  }

  document.addEventListener("click", function (event) {
    var sq = event.target.closest && event.target.closest(".board .sq[aria-disabled='true']");
    if (sq) event.preventDefault();
  }, true);

  var STEPS = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
  document.addEventListener("keydown", function (event) {
    var sq = event.target.closest && event.target.closest(".reversi .board .sq");
    if (!sq || !STEPS[event.key] || !sq.id) return;
    var file = sq.id.charCodeAt(3) - 97;
    var rank = parseInt(sq.id.slice(4), 10) - 1;
    var r = Math.min(7, Math.max(0, rank + STEPS[event.key][0]));
    var f = Math.min(7, Math.max(0, file + STEPS[event.key][1]));
    var next = document.getElementById("sq-" + String.fromCharCode(97 + f) + (r + 1));
    if (!next) return;
    event.preventDefault();
    sq.setAttribute("tabindex", "-1");
    next.setAttribute("tabindex", "0");
    next.focus();
  });

  // --- Replay: left and right arrow keys step back and forward --------------------------------------
  document.addEventListener("keydown", function (event) {
    if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (!document.getElementById("replay-body")) return;
    var tag = (event.target.tagName || "").toLowerCase();
    if (tag === "input" || tag === "select" || tag === "textarea") return;
    var link = document.querySelector("#replay-body a[rel='" + (event.key === "ArrowLeft" ? "prev" : "next") + "']");
    if (!link) return;
    event.preventDefault();
    link.click();
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    if (!event.detail.elt || event.detail.elt.id !== "replay-body") return;
    var step = event.detail.elt.querySelector(".replay-step");
    if (step) announce(step.textContent.trim());
  });

  // --- DOS: which Center Row cards the chosen hand cards can match, and their sum --------------------
  function setUpDos(root) {
    var hand = root.querySelector(".dos-hand-cards[data-matches]");
    if (!hand || hand.getAttribute("data-ready")) return;
    hand.setAttribute("data-ready", "1");
    showDos(hand);
  }

  function showDos(hand) {
    var matches = JSON.parse(hand.getAttribute("data-matches") || "{}");
    var chosen = Array.prototype.filter.call(hand.querySelectorAll("input[name='cards[]']"), function (box) {
      return box.checked;
    });
    var codes = chosen.map(function (box) { return box.value; });
    var targets = [];
    if (codes.length === 1) {
      // One card: every Center Row card it can match, alone or with a second card.
      Object.keys(matches).forEach(function (key) {
        if (key.split("+").indexOf(codes[0]) === -1) return;
        matches[key].forEach(function (p) { if (targets.indexOf(p) === -1) targets.push(p); });
      });
    } else if (codes.length === 2) {
      targets = matches[codes.join("+")] || [];
    }
    var row = document.querySelectorAll(".dos-row-cards > li");
    Array.prototype.forEach.call(row, function (li, position) {
      var can = targets.indexOf(position) !== -1;
      li.classList.toggle("dos-target", can);
      var mark = li.querySelector(".dos-target-mark");
      if (can && !mark) {
        mark = document.createElement("span");
        mark.className = "dos-target-mark";
        mark.textContent = hand.getAttribute("data-can-match");
        li.appendChild(mark);
      } else if (!can && mark) {
        mark.remove();
      }
    });
    var sum = document.getElementById("dos-sum");
    if (!sum) return;
    if (!chosen.length) { sum.textContent = ""; return; }
    var total = 0;
    var wild = 0;
    chosen.forEach(function (box) {
      var value = box.getAttribute("data-value");
      if (value === "#") wild += 1; else total += parseInt(value, 10);
    });
    var text = hand.getAttribute("data-sum").replace("%(sum)s", window.turnwiseDigits(total) + (wild ? " + #".repeat(wild) : ""));
    if (chosen.length > 2) text += " " + hand.getAttribute("data-too-many");
    else if (!targets.length) text += " " + hand.getAttribute("data-no-target");
    sum.textContent = text;
  }

  document.addEventListener("change", function (event) {
    var hand = event.target.closest && event.target.closest(".dos-hand-cards[data-matches]");
    if (hand) showDos(hand);
  });

  document.addEventListener("DOMContentLoaded", function () {
    var body = document.getElementById("match-body");
    if (body) { setUpReversi(body); setUpDos(body); }
  });
})();
