// Motion that explains a move (docs/design.md, "Motion"). The server sends the new board as before (the
// htmx reply to one's own move, or a live push through the WebSocket extension); this script compares
// the board just before the swap with the board after it and animates the difference, FLIP style:
// the new board is already in its final place, and each changed piece is shown travelling there from
// where it was (Web Animations API, 150-400 ms). Nothing moves under prefers-reduced-motion, and a
// state is animated at most once (keyed on the match version the fragment carries), so a re-render of
// the same state or an older push never replays a move; the final state is always the one drawn.
//
// What the templates mark (stable data- attributes, no game is named here):
//   data-key="..."      one element per key on a board (a square, a seat, a score, the cat); when it
//                       moves it travels, when its data-face changes it flips (inside [data-motion=flip])
//                       or pulses; an empty face that fills (a disc placed) drops in.
//   data-zone="..."     a place cards lie (hand, row, trick, pile); cards are its [data-card] elements,
//                       or those matching its data-cards selector (their text is the card).
//   data-source         a keyed count of hidden cards (an opponent's hand): a card that appears with no
//                       visible origin comes from the source whose count went down (if only one did).
//   data-from="key"     on a card or around it: the key of the seat that played it.
//   data-gather="key"   cards that left the table go to that key (a trick gathered to its winner).
//   data-frame="name"   a fixed frame (the track) a moving key is measured on, so a change of the page's
//                       height above it is not shown as the key travelling; zones are frames too.
(function () {
  "use strict";

  var MOVE_MS = 320;
  var FLIP_MS = 360;
  var PULSE_MS = 260;
  var EASE = "cubic-bezier(.2, .7, .3, 1)";
  var reduced = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;
  var snapshot = null;
  var animatedVersion = null;
  var states = 0;

  function matchBody() { return document.getElementById("match-body"); }

  function versionOf(body) {
    var version = body ? parseInt(body.getAttribute("data-version"), 10) : NaN;
    return isNaN(version) ? null : version;
  }

  function zonesIn(root) {
    // Zones by name and order ("hand#0", "hand#1": Back Alley groups a hand by suit).
    var seen = {};
    return Array.prototype.map.call(root.querySelectorAll("[data-zone]"), function (zone) {
      var name = zone.getAttribute("data-zone");
      seen[name] = (seen[name] || 0) + 1;
      return {el: zone, name: name, id: name + "#" + (seen[name] - 1)};
    });
  }

  function cardsIn(root) {
    var cards = [];
    zonesIn(root).forEach(function (zone) {
      var selector = zone.el.getAttribute("data-cards") || "[data-card]";
      Array.prototype.forEach.call(zone.el.querySelectorAll(selector), function (el) {
        // A card belongs to its nearest zone only (a zone may hold another).
        if (el.parentElement.closest("[data-zone]") !== zone.el) return;
        var code = el.getAttribute("data-card") || el.textContent.trim();
        if (code) cards.push({el: el, code: code, zone: zone.name, zoneId: zone.id});
      });
    });
    return cards;
  }

  function rectOf(el) {
    var r = el.getBoundingClientRect();
    return {left: r.left, top: r.top, width: r.width, height: r.height};
  }

  function take() {
    var body = matchBody();
    if (!body) { snapshot = null; return; }
    var keyed = {};
    Array.prototype.forEach.call(body.querySelectorAll("[data-key]"), function (el) {
      var frame = el.closest("[data-frame]");
      keyed[el.getAttribute("data-key")] = {
        rect: rectOf(el), face: el.getAttribute("data-face"),
        frame: frame ? frame.getAttribute("data-frame") : null, frameRect: frame ? rectOf(frame) : null,
      };
    });
    snapshot = {
      version: versionOf(body),
      // Ghosts are placed in the document, not the viewport: focus may scroll the page after the swap.
      scrollX: window.scrollX,
      scrollY: window.scrollY,
      keyed: keyed,
      cards: cardsIn(body).map(function (c) {
        return {code: c.code, zone: c.zone, zoneId: c.zoneId, rect: rectOf(c.el), el: c.el};
      }),
      zones: zonesIn(body).reduce(function (all, zone) { all[zone.id] = rectOf(zone.el); return all; }, {}),
    };
  }

  function travel(el, from, ms) {
    var to = el.getBoundingClientRect();
    var dx = from.left - to.left;
    var dy = from.top - to.top;
    if (Math.abs(dx) < 1 && Math.abs(dy) < 1) return null;
    var sx = to.width ? from.width / to.width : 1;
    var sy = to.height ? from.height / to.height : 1;
    return el.animate([
      {transform: "translate(" + dx + "px, " + dy + "px) scale(" + sx + ", " + sy + ")", transformOrigin: "0 0", zIndex: 5},
      {transform: "none", transformOrigin: "0 0", zIndex: 5},
    ], {duration: ms || MOVE_MS, easing: EASE});
  }

  function fromSeat(el, seat) {
    // A card out of a hidden hand: it sets off, small, from the middle of that player's place.
    var to = el.getBoundingClientRect();
    var dx = seat.left + seat.width / 2 - (to.left + to.width / 2);
    var dy = seat.top + seat.height / 2 - (to.top + to.height / 2);
    return el.animate([
      {transform: "translate(" + dx + "px, " + dy + "px) scale(.6)", opacity: 0},
      {transform: "translate(" + dx * 0.8 + "px, " + dy * 0.8 + "px) scale(.7)", opacity: 1, offset: 0.2},
      {transform: "none", opacity: 1},
    ], {duration: 380, easing: EASE});
  }

  function appear(el, order) {
    // A card from nowhere visible (a draw, a deal): dealt one after another, all within 400 ms.
    return el.animate([
      {transform: "translateY(-.6rem) scale(.85)", opacity: 0},
      {transform: "none", opacity: 1},
    ], {duration: 200, delay: Math.min(order * 25, 200), easing: EASE, fill: "backwards"});
  }

  function flip(el) {
    // The face is already the new one: the first half shows the old (its inverse), then it turns.
    return el.animate([
      {transform: "scaleX(1)", filter: "invert(1)"},
      {transform: "scaleX(0)", filter: "invert(1)", offset: 0.5},
      {transform: "scaleX(0)", filter: "invert(0)", offset: 0.5},
      {transform: "scaleX(1)", filter: "invert(0)"},
    ], {duration: FLIP_MS, easing: "ease-in-out"});
  }

  function drop(el) {
    return el.animate([
      {transform: "scale(1.5)", opacity: 0},
      {transform: "scale(1)", opacity: 1},
    ], {duration: 220, easing: EASE});
  }

  function pulse(el) {
    if (el.tagName === "TR") {
      // A table row cannot grow: its cells flash instead (a player's count or score changed).
      return Array.prototype.map.call(el.children, function (cell) {
        return cell.animate([
          {backgroundColor: "rgba(255, 191, 0, .55)"}, {backgroundColor: "rgba(255, 191, 0, 0)"},
        ], {duration: 400, easing: "ease-out"});
      })[0] || null;
    }
    return el.animate([
      {transform: "scale(1)"}, {transform: "scale(1.35)", offset: 0.4}, {transform: "scale(1)"},
    ], {duration: PULSE_MS, easing: "ease-out"});
  }

  function ghost(from, node, target, before) {
    // A card that left the table: a copy travels from where it was to where it went, then goes.
    var copy = node.cloneNode(true);
    copy.removeAttribute("id");
    copy.setAttribute("aria-hidden", "true");
    copy.classList.add("motion-ghost");
    copy.style.left = from.left + before.scrollX + "px";
    copy.style.top = from.top + before.scrollY + "px";
    copy.style.width = from.width + "px";
    copy.style.height = from.height + "px";
    document.body.appendChild(copy);
    var dx = target.left + window.scrollX + target.width / 2 - (from.left + before.scrollX + from.width / 2);
    var dy = target.top + window.scrollY + target.height / 2 - (from.top + before.scrollY + from.height / 2);
    var animation = copy.animate([
      {transform: "none", opacity: 1},
      {transform: "translate(" + dx + "px, " + dy + "px) scale(.5)", opacity: 0},
    ], {duration: 380, easing: EASE, delay: 120, fill: "backwards"});
    animation.onfinish = animation.oncancel = function () { copy.remove(); };
    return animation;
  }

  function number(face) {
    var n = parseFloat(face);
    return isNaN(n) ? null : n;
  }

  function animateKeyed(body, before, started) {
    var sources = [];
    Array.prototype.forEach.call(body.querySelectorAll("[data-key]"), function (el) {
      var old = before.keyed[el.getAttribute("data-key")];
      if (!old) return;
      var face = el.getAttribute("data-face");
      if (el.hasAttribute("data-source") && number(face) !== null && number(old.face) !== null && number(face) < number(old.face)) {
        sources.push(old.rect);
      }
      if (face === null) {
        // A piece that moves (the cat): it travels from its old place on its frame (the track), not
        // with the frame when the page above it changed height.
        var from = old.rect;
        var frame = el.closest("[data-frame]");
        if (frame && old.frameRect && frame.getAttribute("data-frame") === old.frame) {
          var now = rectOf(frame);
          from = {left: from.left + now.left - old.frameRect.left, top: from.top + now.top - old.frameRect.top, width: from.width, height: from.height};
        }
        started.push(travel(el, from, 400));
      } else if (face !== old.face) {
        // A piece that changes in place (a square, a count): it never slides with the page's layout.
        var inner = el.firstElementChild || el;
        if (!old.face) started.push(drop(inner));
        else if (el.closest("[data-motion='flip']")) started.push(flip(inner));
        // A seat whose hidden hand shrank is where a card flies from: it does not pulse as well.
        else if (!el.hasAttribute("data-source") || el.tagName === "TR") started.push(pulse(el));
      }
    });
    return sources;
  }

  function animateCards(body, before, sources, started) {
    var left = before.cards.slice();
    var after = cardsIn(body);
    function takeFrom(code, zone) {
      for (var i = 0; i < left.length; i += 1) {
        if (left[i].code === code && (zone === null || left[i].zone === zone)) return left.splice(i, 1)[0];
      }
      return null;
    }
    // First the cards that stayed in their zone: they shift as others come and go, but not with the
    // zone itself when the page above it changed height (that is layout, not play) ...
    var zonesNow = {};
    zonesIn(body).forEach(function (zone) { zonesNow[zone.id] = rectOf(zone.el); });
    function shifted(card) {
      // Where a card was, moved as much as its zone has moved since (0 if the zone is gone).
      var was = before.zones[card.zoneId];
      var now = zonesNow[card.zoneId];
      if (!was || !now) return card.rect;
      return {left: card.rect.left + now.left - was.left, top: card.rect.top + now.top - was.top, width: card.rect.width, height: card.rect.height};
    }
    var arrived = [];
    after.forEach(function (card) {
      var same = takeFrom(card.code, card.zone);
      if (!same) { arrived.push(card); return; }
      started.push(travel(card.el, shifted(same)));
    });
    // ... then those new to a zone: from the zone that lost that card, else from a hidden hand.
    var dealt = 0;
    arrived.forEach(function (card) {
      var origin = takeFrom(card.code, null);
      // Who played it, when the page says (a trick's card names its seat's key) ...
      var from = card.el.closest("[data-from]");
      var seat = from && body.querySelector("[data-key='" + from.getAttribute("data-from") + "']");
      if (origin) started.push(travel(card.el, shifted(origin), 380));
      else if (seat) started.push(fromSeat(card.el, rectOf(seat)));
      // ... else the one hidden hand that shrank.
      else if (sources.length === 1) started.push(fromSeat(card.el, sources[0]));
      else started.push(appear(card.el, dealt++));
    });
    // What left the table altogether is gathered (a trick to its winner).
    var gather = body.querySelector("[data-gather]");
    var target = gather && body.querySelector("[data-key='" + gather.getAttribute("data-gather") + "']");
    if (!target) return;
    var to = target.getBoundingClientRect();
    left.forEach(function (card) {
      if (card.zone === "trick" || card.zone === "hand") started.push(ghost(card.rect, card.el, to, before));
    });
  }

  function play() {
    var before = snapshot;
    snapshot = null;
    var body = matchBody();
    var version = versionOf(body);
    if (!body || !before || version === null || before.version === null) return;
    // Only a newer state is a move; and each state is animated once, however it arrived.
    if (version <= before.version || (animatedVersion !== null && version <= animatedVersion)) return;
    animatedVersion = version;
    states += 1;
    var started = [];
    if (!(reduced && reduced.matches) && typeof body.animate === "function") {
      var sources = animateKeyed(body, before, started);
      animateCards(body, before, sources, started);
    }
    started = started.filter(Boolean);
    // What a test (and the sound script) can read: the version animated and how many pieces moved.
    document.documentElement.setAttribute("data-motion-version", String(version));
    document.documentElement.setAttribute("data-motion-count", String(started.length));
    document.documentElement.setAttribute("data-motion-states", String(states));
    document.dispatchEvent(new CustomEvent("turnwise:moved", {detail: {version: version, before: before.version, body: body}}));
  }

  document.addEventListener("htmx:beforeSwap", function (event) {
    if (event.detail.target && event.detail.target.id === "match-body") take();
  });
  // A message turnwise.js dropped (an older state, or the page's own state again) is never swapped in:
  // nothing to measure (static/js/turnwise.js runs first: it is loaded before this script).
  document.addEventListener("htmx:wsBeforeMessage", function (event) { if (!event.defaultPrevented) take(); });
  // Right after the swap, before the new board is painted in place: no frame shows it unanimated.
  document.addEventListener("htmx:afterSwap", function () { if (snapshot) play(); });
  document.addEventListener("htmx:oobAfterSwap", function () { if (snapshot) play(); });
  document.addEventListener("htmx:wsAfterMessage", function () { if (snapshot) play(); });
  document.addEventListener("DOMContentLoaded", function () {
    animatedVersion = versionOf(matchBody());
  });
})();
