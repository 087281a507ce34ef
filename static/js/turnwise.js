// The one thing htmx cannot do by itself: keep the tab title's "(n)" in step with the live turn badge.
(function () {
  "use strict";
  function syncTitle() {
    var badge = document.getElementById("turn-badge");
    if (!badge) return;
    var count = parseInt(badge.getAttribute("data-count") || "0", 10);
    var page = document.title.replace(/^\(\d+\)\s*/, "");
    document.title = (count > 0 ? "(" + count + ") " : "") + (page || "Turnwise");
  }
  document.addEventListener("DOMContentLoaded", syncTitle);
  document.addEventListener("htmx:oobAfterSwap", syncTitle);
  document.addEventListener("htmx:wsAfterMessage", syncTitle);
})();
