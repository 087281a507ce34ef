// The match and replay pages of every game, by keyboard and screen reader: after every change focus
// stays on the board and what happened is read out; the arrow keys move over a board of squares and
// step a replay. A board of squares marks its container data-grid and its cells (buttons) data-row and
// data-col: it is one tab stop, the arrow keys move over every cell (roving tabindex), and a cell that
// is not a legal move stays focusable (aria-disabled), so a screen reader can explore the whole board;
// focus comes back to that cell after a change. A game's own script (its app's static/<game>/board.js)
// adds what only its board does, through window.turnwiseBoard.onRender. Everything works without these
// files too (plain forms, links and the server's marks); they only make it quicker.
(function () {
  "use strict";

  // --- what a game's script adds: a function run on the board after every render ------------------
  var setUps = [];
  window.turnwiseBoard = {
    // Game scripts load deferred after this one, so before the first render (DOMContentLoaded).
    onRender: function (fn) { setUps.push(fn); },
  };

  var CELL = "[data-grid] [data-row][data-col]";

  function setUpGrid(root) {
    var cells = root.querySelectorAll(CELL);
    if (!cells.length) return;
    var start = null;
    Array.prototype.forEach.call(cells, function (cell) {
      if (cell.disabled) {
        // Focusable, but not pressable: a reader can explore the whole board cell by cell.
        cell.disabled = false;
        cell.setAttribute("aria-disabled", "true");
      }
      cell.setAttribute("tabindex", "-1");
      if (!start && cell.getAttribute("aria-disabled") !== "true") start = cell;
    });
    (start || root.querySelector("[data-grid] [data-row].last") || cells[0]).setAttribute("tabindex", "0");
  }

  function setUp(body) {
    setUpGrid(body);
    // The log lists the oldest first and scrolls within its box: show its newest lines.
    var log = body.querySelector(".events ul");
    if (log) log.scrollTop = log.scrollHeight;
    setUps.forEach(function (fn) { fn(body); });
  }

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
      "[data-grid] [data-row][tabindex='0'], button:not([disabled]):not([aria-disabled='true']), input:not([type='hidden']):not([disabled]), select:not([disabled])"
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
    setUp(body);
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
      var grid = target.hasAttribute("data-row") && target.closest("[data-grid]");
      if (grid) {
        Array.prototype.forEach.call(grid.querySelectorAll("[data-row]"), function (cell) { cell.setAttribute("tabindex", "-1"); });
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

  // --- A board of squares: the arrow keys move over its cells; a cell that is not a move does nothing --
  document.addEventListener("click", function (event) {
    var cell = event.target.closest && event.target.closest("[data-grid] [data-row][aria-disabled='true']");
    if (cell) event.preventDefault();
  }, true);

  var STEPS = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
  document.addEventListener("keydown", function (event) {
    var cell = event.target.closest && event.target.closest(CELL);
    if (!cell || !STEPS[event.key]) return;
    var grid = cell.closest("[data-grid]");
    var row = parseInt(cell.getAttribute("data-row"), 10) + STEPS[event.key][0];
    var col = parseInt(cell.getAttribute("data-col"), 10) + STEPS[event.key][1];
    var next = grid.querySelector("[data-row='" + row + "'][data-col='" + col + "']");
    event.preventDefault();
    if (!next) return;  // the edge of the board
    cell.setAttribute("tabindex", "-1");
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

  document.addEventListener("DOMContentLoaded", function () {
    var body = document.getElementById("match-body");
    if (body) setUp(body);
  });
})();
