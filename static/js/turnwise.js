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
  // The socket's first state is usually the one the page was just drawn with: drawing it again
  // would replace the whole match area for nothing (a long task and a layout shift on a phone, while
  // the page is still loading). Later states of the same version (a reconnect) are drawn: the clocks'
  // "left" may have moved on.
  var firstState = true;
  document.addEventListener("htmx:wsBeforeMessage", function (event) {
    var incoming = versionIn(event.detail.message);
    if (incoming === null) return;
    var shown = shownVersion();
    var same = firstState && incoming === shown;
    firstState = false;
    if (shown !== null && (incoming < shown || same)) event.preventDefault();
  });
})();

// A message about a match ("bob has been challenged.") is true of the state the page was drawn at.
// Once a newer state arrives (bob declined), it goes: the match itself now says what happened.
(function () {
  "use strict";
  var drawnAt = null;
  function shown() {
    var body = document.getElementById("match-body");
    var version = body ? parseInt(body.getAttribute("data-version"), 10) : NaN;
    return isNaN(version) ? null : version;
  }
  function dropOutdated() {
    var now = shown();
    if (drawnAt === null || now === null || now <= drawnAt) return;
    document.querySelectorAll("[data-match-news]").forEach(function (item) {
      var list = item.parentNode;
      item.remove();
      if (list && !list.children.length) list.remove();
    });
  }
  document.addEventListener("DOMContentLoaded", function () { drawnAt = shown(); });
  document.addEventListener("htmx:wsAfterMessage", dropOutdated);
  document.addEventListener("htmx:afterSwap", dropOutdated);
})();

// Close codes the server sends (games/live/consumers.py, listed in docs/security.md). 4012 asks the page
// to reconnect (the account changed: a page whose session is still valid gets back in), a code htmx's
// WebSocket extension does not know. 4401 (no session), 4403 (not allowed to watch) and 4429 (too
// many sockets) end the live updates: trying again cannot help, and a reload still shows the page.
// The extension itself reconnects after 1006 (connection lost) and 1011-1013 (server trouble).
(function () {
  "use strict";
  var RECONNECT = 4012;
  document.addEventListener("htmx:wsClose", function (event) {
    var detail = event.detail || {};
    if (!detail.event || detail.event.code !== RECONNECT || !detail.socketWrapper) return;
    if (!document.body.contains(event.target)) return;
    // Spread out: every page of the account was closed at the same moment.
    setTimeout(detail.socketWrapper.reconnect, 250 + Math.floor(Math.random() * 1000));
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
