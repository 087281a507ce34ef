// Short sounds in a match (docs/design.md, "Sound"): your turn, a move, a card played, the end. Off
// unless the account turned them on in Settings, which the page says with <meta name="turnwise-sound"
// content="on">: without it this script creates no AudioContext and plays nothing. The tones are made
// here with Web Audio oscillators (no sound files), and follow the moves motion.js reports, so a
// state heard once is never heard again.
(function () {
  "use strict";

  var meta = document.querySelector("meta[name='turnwise-sound']");
  if (!meta || meta.getAttribute("content") !== "on") return;
  var Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return;

  // Each cue: notes as [frequency Hz, start s, length s], a waveform and a volume.
  var CUES = {
    turn: {wave: "sine", gain: 0.18, notes: [[660, 0, 0.12], [880, 0.12, 0.18]]},
    move: {wave: "triangle", gain: 0.22, notes: [[220, 0, 0.09]]},
    card: {wave: "triangle", gain: 0.16, notes: [[520, 0, 0.05], [390, 0.05, 0.07]]},
    end: {wave: "sine", gain: 0.18, notes: [[523, 0, 0.16], [659, 0.16, 0.16], [784, 0.32, 0.3]]},
  };
  var context = null;

  function audio() {
    if (!context) context = new Context();
    // Browsers start audio suspended until the person has interacted with the page.
    if (context.state === "suspended") context.resume();
    return context;
  }

  function playCue(name) {
    var cue = CUES[name];
    var ctx = audio();
    var start = ctx.currentTime + 0.02;
    cue.notes.forEach(function (note) {
      var osc = ctx.createOscillator();
      var gain = ctx.createGain();
      osc.type = cue.wave;
      osc.frequency.value = note[0];
      // A quick rise and fall: no click at either end.
      gain.gain.setValueAtTime(0, start + note[1]);
      gain.gain.linearRampToValueAtTime(cue.gain, start + note[1] + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + note[1] + note[2]);
      osc.connect(gain).connect(ctx.destination);
      osc.start(start + note[1]);
      osc.stop(start + note[1] + note[2] + 0.02);
    });
    document.documentElement.setAttribute("data-sound-cue", name);
  }

  function state(body) {
    return {
      turn: !!(body && body.querySelector(".your-turn")),
      over: !!(body && body.getAttribute("data-status") === "finished"),
    };
  }

  var last = null;
  document.addEventListener("DOMContentLoaded", function () {
    last = state(document.getElementById("match-body"));
    // The first touch or key on the page lets the browser start audio.
    var unlock = function () { audio(); document.removeEventListener("pointerdown", unlock); document.removeEventListener("keydown", unlock); };
    document.addEventListener("pointerdown", unlock);
    document.addEventListener("keydown", unlock);
  });
  document.addEventListener("turnwise:moved", function (event) {
    var now = state(event.detail.body);
    var was = last || {turn: false, over: false};
    last = now;
    if (now.over && !was.over) playCue("end");
    else if (now.turn && !was.turn) playCue("turn");
    else if (event.detail.body.querySelector("[data-zone]")) playCue("card");
    else playCue("move");
  });
})();
