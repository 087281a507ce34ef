// The settings page's Web Push toggle: register the service worker, subscribe this browser with the
// site's VAPID key, and tell the server (which encrypts each push for this subscription).
(function () {
  "use strict";

  function keyBytes(base64url) {
    var padded = (base64url + "===".slice((base64url.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    var raw = window.atob(padded);
    var bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i += 1) bytes[i] = raw.charCodeAt(i);
    return bytes;
  }

  function csrfToken() {
    try { return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"]; } catch (error) { return ""; }
  }

  function post(url, body) {
    return fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: {"Content-Type": "application/json", "X-CSRFToken": csrfToken()},
      body: JSON.stringify(body),
    }).then(function (response) {
      return response.json().then(function (data) {
        if (!response.ok) throw new Error((data.error && data.error.message) || response.statusText);
        return data;
      });
    });
  }

  var FAILED = gettext("This browser could not subscribe; try again later.");

  function setUp() {
    var button = document.getElementById("push-toggle");
    var status = document.getElementById("push-status");
    if (!button || !status) return;
    if (!("serviceWorker" in navigator) || !("PushManager" in window) || !window.Notification) return;
    var registration = null;

    function show(subscribed, message) {
      button.textContent = subscribed
        ? gettext("Turn off notifications for this browser")
        : gettext("Turn on notifications for this browser");
      button.setAttribute("aria-pressed", subscribed ? "true" : "false");
      status.textContent = message || "";
    }

    function turnOn() {
      return Notification.requestPermission().then(function (permission) {
        if (permission !== "granted") { show(false, gettext("Your browser blocks notifications for this site; allow them in its settings.")); return null; }
        return registration.pushManager.subscribe({
          userVisibleOnly: true,
          applicationServerKey: keyBytes(button.getAttribute("data-key")),
        }).then(function (subscription) {
          return post(button.getAttribute("data-subscribe"), subscription.toJSON());
        }).then(function (data) { show(true, data.message); });
      });
    }

    function turnOff(subscription) {
      var endpoint = subscription.endpoint;
      return subscription.unsubscribe().then(function () {
        return post(button.getAttribute("data-unsubscribe"), {endpoint: endpoint});
      }).then(function (data) { show(false, data.message); });
    }

    navigator.serviceWorker.register("/sw.js", {scope: "/"}).then(function (reg) {
      registration = reg;
      return reg.pushManager.getSubscription();
    }).then(function (subscription) {
      button.hidden = false;
      show(Boolean(subscription), "");
      button.addEventListener("click", function () {
        button.disabled = true;
        registration.pushManager.getSubscription().then(function (current) {
          return current ? turnOff(current) : turnOn();
        }).catch(function () {
          status.textContent = FAILED;
        }).then(function () { button.disabled = false; });
      });
    }).catch(function () {
      status.textContent = FAILED;
    });
  }

  document.addEventListener("DOMContentLoaded", setUp);
})();
