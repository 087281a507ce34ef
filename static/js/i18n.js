// Numbers in the digits of the page's language (Assamese ০-৯, Nepali ०-९), for text that scripts
// write into the page; values scripts read or send stay in ASCII digits. games.support.i18n.digits does the
// same on the server.
(function () {
  "use strict";
  var ZERO = {as: 0x09e6, ne: 0x0966};

  window.turnwiseDigits = function (value) {
    var zero = ZERO[document.documentElement.lang];
    var text = String(value);
    if (!zero) return text;
    return text.replace(/[0-9]/g, function (digit) { return String.fromCharCode(zero + Number(digit)); });
  };
})();
