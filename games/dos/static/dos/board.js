// DOS: which Center Row cards the chosen hand cards can match, and their sum so far. The server marks
// nothing of this (it is only a preview); without this file the player simply chooses and submits.
(function () {
  "use strict";

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

  window.turnwiseBoard.onRender(setUpDos);
})();
