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
    var reckoned = reckon(hand, chosen);
    if (!sum) return;
    if (!chosen.length) { sum.textContent = ""; return; }
    // Numbers only: the sum, or while a Wild # has no value yet, the range it may reach (1 to 10 each).
    var total = reckoned.open ? window.turnwiseDigits(reckoned.known + reckoned.open) + "–" +
      window.turnwiseDigits(reckoned.known + 10 * reckoned.open) : window.turnwiseDigits(reckoned.known);
    var text = hand.getAttribute("data-sum").replace("%(sum)s", total);
    if (chosen.length > 2) text += " " + hand.getAttribute("data-too-many");
    else if (!targets.length) text += " " + hand.getAttribute("data-no-target");
    sum.textContent = text;
  }

  // The value of a Center Row card, if known: its number, 2 for a Wild DOS, a Wild # as declared.
  function targetValue(radio) {
    var code = radio.getAttribute("data-code") || "";
    if (code === "W2") return 2;
    if (code.slice(-1) !== "#") return parseInt(code.slice(1), 10);
    var declared = document.getElementById(radio.id + "-declare");
    return declared && declared.value ? parseInt(declared.value, 10) : null;
  }

  // The chosen cards' known sum and how many Wild # have no value yet. A Wild # whose value is forced
  // (the only open one, with a Center Row card chosen) gets it filled in; a value the script filled
  // is worked out again when the choice changes, one the player chose is kept.
  function reckon(hand, chosen) {
    var form = hand.closest("form");
    var copies = {};
    var known = 0;
    var open = [];
    chosen.forEach(function (box) {
      var value = box.getAttribute("data-value");
      if (value !== "#") { known += parseInt(value, 10); return; }
      copies[box.value] = (copies[box.value] || 0) + 1;
      var select = form && form.querySelector(
        ".dos-decl[data-code='" + box.value + "'][data-copy='" + copies[box.value] + "'] select");
      if (select && select.value && !select.hasAttribute("data-forced")) known += parseInt(select.value, 10);
      else open.push(select);
    });
    var target = form && form.querySelector("input[name='target']:checked");
    var goal = target ? targetValue(target) : null;
    var forced = goal === null || open.length !== 1 ? null : goal - known;
    open.forEach(function (select) {
      if (select && select.hasAttribute("data-forced")) { select.value = ""; select.removeAttribute("data-forced"); }
    });
    if (forced !== null && open[0] && open[0].querySelector("option[value='" + forced + "']")) {
      open[0].value = String(forced);
      open[0].setAttribute("data-forced", "1");
      return { known: known + forced, open: 0 };
    }
    return { known: known, open: open.length };
  }

  document.addEventListener("change", function (event) {
    var form = event.target.closest && event.target.closest(".dos-form");
    var hand = form && form.querySelector(".dos-hand-cards[data-matches]");
    if (!hand) return;
    if (event.target.matches(".dos-decl select")) event.target.removeAttribute("data-forced");
    showDos(hand);
  });

  window.turnwiseBoard.onRender(setUpDos);
})();
