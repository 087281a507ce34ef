// Confirm moves (lichess, OGS), for players who turned it on in their settings: the first tap on a
// move (a Reversi square, a Back Alley card, a Tacocat jumbo attack or answer) only selects it, a
// second tap on the same one makes it; a tap anywhere else drops the selection. "touch" mode works on
// touch screens only. Without this script (or without JavaScript) a move is posted at once, as the
// plain form does. A game marks the buttons that make a move in one tap with data-move
// (docs/adding-a-game.md): this script names no game.
(function () {
  "use strict";
  var script = document.currentScript;
  var mode = script ? script.getAttribute("data-mode") : "off";
  var coarse = window.matchMedia && window.matchMedia("(pointer: coarse)").matches;
  if (!(mode === "always" || (mode === "touch" && coarse))) return;

  var MOVES = "#match-body button[data-move]";
  var selected = null;

  function drop() {
    if (!selected) return;
    selected.classList.remove("confirm-pending");
    selected.removeAttribute("aria-pressed");
    selected = null;
  }

  function say(text) {
    var region = document.getElementById("board-announcer");
    if (region) region.textContent = text;
  }

  // In the capture phase, before htmx sees the click: a cancelled click submits nothing.
  document.addEventListener(
    "click",
    function (event) {
      var button = event.target.closest ? event.target.closest(MOVES) : null;
      if (button && button === selected) {
        drop(); // the second tap: the move goes ahead
        return;
      }
      drop();
      if (!button) return;
      event.preventDefault();
      selected = button;
      button.classList.add("confirm-pending");
      button.setAttribute("aria-pressed", "true");
      say(gettext("Selected. Tap it again to make this move."));
    },
    true
  );
  // A new board (an own move, a pushed one) replaces the buttons: nothing stays selected.
  document.addEventListener("htmx:afterSwap", function () { selected = null; });
})();
