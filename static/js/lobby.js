// The filter runs in the page, so cards that gain or lose a good road with a live
// update show or hide at once.
(function () {
  var form = document.getElementById("lobby-filter");
  if (!form) return; // no tables yet
  function apply() {
    var goodOnly = form.good.checked, pattern = form.pattern.value, shown = 0;
    document.querySelectorAll("#lobby-grid .table-card").forEach(function (card) {
      var roads = card.dataset.goodRoads ? card.dataset.goodRoads.split(" ") : [];
      var show = (!goodOnly || roads.length > 0) && (!pattern || roads.indexOf(pattern) >= 0);
      card.hidden = !show;
      shown += show;
    });
    document.getElementById("no-match").hidden = shown > 0;
    var query = new URLSearchParams(new FormData(form));
    if (!goodOnly) query.delete("good");
    if (!pattern) query.delete("pattern");
    history.replaceState(null, "", query.toString() ? "?" + query : location.pathname);
  }
  form.addEventListener("change", apply);
  form.addEventListener("submit", function (e) { e.preventDefault(); apply(); });
  document.addEventListener("htmx:wsAfterMessage", apply);
  apply();
})();
