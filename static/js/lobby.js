// The filter runs in the page, so cards that gain or lose a good road with a live
// update show or hide at once. The good road settings switch patterns off for
// highlighting: a card stands out, and counts as a good road for "Good roads only",
// only for the patterns switched on; a switched-off pattern's badge is dimmed, and the
// pattern filter still finds it (a pattern picked by name is asked for, good or not). The switches
// are remembered in this browser, as the patterns switched off, so a pattern added
// later starts on.
(function () {
  var form = document.getElementById("lobby-filter");
  if (!form) return; // no tables yet
  var KEY = "goodRoadsOff";
  var switches = document.querySelectorAll("#road-settings input[data-pattern]");

  function loadOff() {
    try {
      var stored = JSON.parse(localStorage.getItem(KEY) || "[]");
      return Array.isArray(stored) ? stored : [];
    } catch (e) {
      return []; // storage blocked or spoilt: every pattern on
    }
  }
  function saveOff(off) {
    try { localStorage.setItem(KEY, JSON.stringify(off)); } catch (e) { /* kept for this page only */ }
  }
  var off = loadOff();
  switches.forEach(function (box) { box.checked = off.indexOf(box.dataset.pattern) < 0; });

  function apply() {
    var goodOnly = form.good.checked, pattern = form.pattern.value, shown = 0;
    document.querySelectorAll("#lobby-grid .table-card").forEach(function (card) {
      var roads = card.dataset.goodRoads ? card.dataset.goodRoads.split(" ") : [];
      var on = roads.filter(function (name) { return off.indexOf(name) < 0; });
      card.classList.toggle("has-good-road", on.length > 0);
      card.querySelectorAll(".badge[data-pattern]").forEach(function (badge) {
        badge.classList.toggle("badge-off", off.indexOf(badge.dataset.pattern) >= 0);
      });
      var show = pattern ? roads.indexOf(pattern) >= 0 : !goodOnly || on.length > 0;
      card.hidden = !show;
      shown += show;
    });
    document.getElementById("no-match").hidden = shown > 0;
    var query = new URLSearchParams(new FormData(form));
    if (!goodOnly) query.delete("good");
    if (!pattern) query.delete("pattern");
    history.replaceState(null, "", query.toString() ? "?" + query : location.pathname);
  }
  switches.forEach(function (box) {
    box.addEventListener("change", function () {
      off = Array.prototype.filter.call(switches, function (b) { return !b.checked; })
        .map(function (b) { return b.dataset.pattern; });
      saveOff(off);
      apply();
    });
  });
  form.addEventListener("change", apply);
  form.addEventListener("submit", function (e) { e.preventDefault(); apply(); });
  document.addEventListener("htmx:wsAfterMessage", apply);
  apply();
})();
