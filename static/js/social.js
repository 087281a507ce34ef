// Inviting and the live inbox: a copy button for the invitation link, the home page's lists refreshed
// when the live badge says something changed, and players taken along when their rematch starts.
(function () {
  "use strict";

  // A pushed fragment has no request to build the link from; complete a bare path here.
  function completeInviteLinks() {
    document.querySelectorAll("input.invite-link").forEach(function (input) {
      if (input.value.charAt(0) === "/") input.value = window.location.origin + input.value;
    });
  }

  // A live push re-renders the panel; what the player was told stays told.
  var copied = "";
  function setUpCopyButtons() {
    document.querySelectorAll(".copy-status").forEach(function (status) { status.textContent = copied; });
    document.querySelectorAll("button.copy-link[hidden]").forEach(function (button) {
      if (!navigator.clipboard) return; // the read-only field stays, ready to select and copy
      button.hidden = false;
      button.addEventListener("click", function () {
        var input = document.getElementById(button.getAttribute("data-copy"));
        navigator.clipboard.writeText(input.value).then(function () {
          copied = gettext("Link copied.");
          // The panel may have been re-rendered meanwhile: write to the one shown now.
          document.querySelectorAll(".copy-status").forEach(function (shown) { shown.textContent = copied; });
        }, function () {
          input.select();
        });
      });
    });
  }

  // Follow a rematch only when it starts while this page is open, not when an old result is revisited.
  var followShown = false;
  function followRematch(live) {
    var link = document.querySelector("#match-body a[data-follow]");
    if (link && live && !followShown) window.location.href = link.href;
    followShown = Boolean(link);
  }

  function refresh(live) {
    completeInviteLinks();
    setUpCopyButtons();
    followRematch(live);
  }

  document.addEventListener("DOMContentLoaded", function () { refresh(false); });
  document.addEventListener("htmx:afterSwap", function () { refresh(true); });

  // The user socket pushes the badge on connect and after every change; past the first push of
  // this page, each one means the inbox may have changed.
  var badgePushes = 0;
  document.addEventListener("htmx:wsAfterMessage", function (event) {
    var message = event.detail && event.detail.message;
    if (typeof message === "string" && message.indexOf('id="turn-badge"') !== -1) {
      badgePushes += 1;
      if (badgePushes > 1) document.body.dispatchEvent(new CustomEvent("turnwise:inbox"));
    } else {
      refresh(true);
    }
  });
})();
