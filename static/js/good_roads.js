// The good-roads view (tables/good_roads.html): every table's lobby card is on the page
// and kept live by the lobby's pushes; this shows the cards with a good road the player
// chose (the lobby's settings, kept in this browser by static/js/lobby.js), the one whose
// chosen good road has run longest first, and says so when there is none.
(function () {
  var grid = document.getElementById("lobby-grid");
  if (!grid) return;
  var OFF = "goodRoadsOff", KEYS = (document.getElementById("alerts-menu") || { dataset: {} }).dataset.patterns;

  function patternsOff() {
    try {
      var off = JSON.parse(localStorage.getItem(OFF) || "[]");
      return Array.isArray(off) ? off : [];
    } catch (e) {
      return [];
    }
  }

  // Each chosen good road the card holds, with how many rounds it has held.
  function runs(card, off) {
    return (card.dataset.runs || "").split(" ").filter(Boolean).map(function (item) {
      var pair = item.split(":");
      return { name: pair[0], run: +pair[1] };
    }).filter(function (held) { return off.indexOf(held.name) < 0; });
  }

  function apply() {
    var off = patternsOff(), cards = Array.prototype.slice.call(grid.querySelectorAll(".table-card")), shown = [];
    cards.forEach(function (card) {
      var held = runs(card, off), longest = Math.max.apply(null, [0].concat(held.map(function (h) { return h.run; })));
      card.hidden = !held.length;
      card.dataset.longest = longest;
      card.querySelectorAll(".badge[data-pattern]").forEach(function (badge) {
        badge.classList.toggle("badge-off", off.indexOf(badge.dataset.pattern) >= 0);
      });
      if (held.length) shown.push(card);
    });
    // Longest-running first; a stable order among equals (the lobby's).
    shown.sort(function (a, b) { return b.dataset.longest - a.dataset.longest; });
    shown.forEach(function (card) { grid.appendChild(card); });
    var none = KEYS && KEYS.split(" ").every(function (key) { return off.indexOf(key) >= 0; });
    document.getElementById("none-chosen").hidden = !none;
    document.getElementById("no-good-road").hidden = none || shown.length > 0;
  }

  document.addEventListener("htmx:wsAfterMessage", apply);
  window.addEventListener("storage", apply); // the settings changed in another tab
  apply();
})();
