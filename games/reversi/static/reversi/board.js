// Reversi's board by keyboard: the board (a table marked data-grid, its squares .sq with data-row and
// data-col) is one tab stop, and the arrow keys move over every square (roving tabindex); a square
// that is not a legal move stays focusable, so a screen reader can explore the whole board. Loaded
// after the site's js/match-page.js, which runs setUpGrid after every render of the match.
(function () {
  "use strict";

  function setUpGrid(root) {
    var squares = root.querySelectorAll("[data-grid] .sq");
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
    (start || root.querySelector("[data-grid] .sq.last") || squares[0]).setAttribute("tabindex", "0");
  }

  document.addEventListener("click", function (event) {
    var sq = event.target.closest && event.target.closest(".board .sq[aria-disabled='true']");
    if (sq) event.preventDefault();
  }, true);

  var STEPS = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
  document.addEventListener("keydown", function (event) {
    var sq = event.target.closest && event.target.closest("[data-grid] .sq");
    if (!sq || !STEPS[event.key]) return;
    var grid = sq.closest("[data-grid]");
    var row = parseInt(sq.getAttribute("data-row"), 10) + STEPS[event.key][0];
    var col = parseInt(sq.getAttribute("data-col"), 10) + STEPS[event.key][1];
    var next = grid.querySelector(".sq[data-row='" + row + "'][data-col='" + col + "']");
    event.preventDefault();
    if (!next) return;  // the edge of the board
    sq.setAttribute("tabindex", "-1");
    next.setAttribute("tabindex", "0");
    next.focus();
  });

  if (window.turnwiseBoard) window.turnwiseBoard.onRender(setUpGrid);
})();
