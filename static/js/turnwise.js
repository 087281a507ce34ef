// What htmx cannot do by itself: keep the tab title's "(n)" in step with the live turn badge, and
// raise a browser notification when a turn arrives while the tab is in the background.
(function () {
  "use strict";
  var lastCount = null;

  function badgeCount() {
    var badge = document.getElementById("turn-badge");
    return badge ? parseInt(badge.getAttribute("data-count") || "0", 10) : null;
  }

  function syncTitle() {
    var count = badgeCount();
    if (count === null) return;
    var page = document.title.replace(/^\([0-9০-৯०-९]+\)\s*/, "");
    document.title = (count > 0 ? "(" + window.turnwiseDigits(count) + ") " : "") + (page || "Turnwise");
    if (lastCount !== null && count > lastCount && document.hidden && window.Notification &&
        Notification.permission === "granted") {
      var note = new Notification("Turnwise", {
        body: document.getElementById("turn-badge").textContent.trim(),
        tag: "turnwise-turns",
      });
      note.onclick = function () { window.focus(); window.location.href = "/"; };
    }
    lastCount = count;
  }

  function setUpNotificationButton() {
    var button = document.getElementById("enable-notifications");
    var status = document.getElementById("notification-status");
    if (!button || !status) return;
    if (!window.Notification) { button.disabled = true; return; }
    function show() {
      if (Notification.permission === "granted") status.textContent = button.getAttribute("data-granted");
      if (Notification.permission === "denied") status.textContent = button.getAttribute("data-denied");
    }
    show();
    button.addEventListener("click", function () { Notification.requestPermission().then(show); });
  }

  document.addEventListener("DOMContentLoaded", function () { syncTitle(); setUpNotificationButton(); });
  document.addEventListener("htmx:oobAfterSwap", syncTitle);
  document.addEventListener("htmx:wsAfterMessage", syncTitle);
})();

// A sent chat message clears its input (hx-on would need eval, which the CSP forbids).
document.addEventListener("htmx:afterRequest", function (event) {
  "use strict";
  var form = event.detail.elt;
  if (form && form.id === "chat-form" && event.detail.successful) form.reset();
});

// Never let an older state replace a newer one. A move's own response and the live push for the
// next move (a computer's, say) can arrive in either order; the match body carries its version.
(function () {
  "use strict";
  // Parsed, not pattern-matched: attribute order, quoting and whitespace are the server's to change.
  // DOMParser builds an inert document (no script runs, nothing loads).
  function versionIn(html) {
    if (!html || html.indexOf("match-body") === -1) return null;
    var body = new DOMParser().parseFromString(html, "text/html").getElementById("match-body");
    var version = body ? parseInt(body.getAttribute("data-version"), 10) : NaN;
    return isNaN(version) ? null : version;
  }
  function shownVersion() {
    var body = document.getElementById("match-body");
    return body ? parseInt(body.getAttribute("data-version"), 10) : null;
  }
  function older(html) {
    var incoming = versionIn(html);
    var shown = shownVersion();
    return incoming !== null && shown !== null && incoming < shown;
  }
  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail.target;
    if (!target || target.id !== "match-body") return;
    if (older(event.detail.serverResponse)) event.detail.shouldSwap = false;
  });
  document.addEventListener("htmx:wsBeforeMessage", function (event) {
    if (older(event.detail.message)) event.preventDefault();
  });
})();

// The new-match form: a seat left to a person needs no computer level, so its menu is disabled while
// "A person" is chosen. Without this script the server draws it so whenever it draws the form.
document.addEventListener("change", function (event) {
  "use strict";
  var radio = event.target;
  if (!radio.matches || !radio.matches(".seat-choice input[type=radio]")) return;
  var level = radio.closest(".seat-choice").querySelector("select");
  if (level) level.disabled = radio.value === "human";
});
