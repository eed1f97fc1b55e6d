// The shoe desk's replay (templates/admin/tables/shoe/desk.html): htmx swaps in the
// part of the page after the round a step link or the slider asks for; this keeps
// the slider and the address on that round (a reload or a shared link shows it), and
// draws the swapped part's charts and roads.
(function () {
  document.addEventListener("htmx:afterSettle", function () {  // the page's only swaps are the replay's
    var replay = document.getElementById("replay");
    if (!replay) return;
    var round = replay.dataset.round, slider = document.getElementById("replay-round");
    if (slider && slider.value !== round) slider.value = round;
    var url = new URL(window.location.href);
    url.searchParams.set("round", round);
    window.history.replaceState(null, "", url);
    document.dispatchEvent(new Event("charts:swapped"));  // static/js/charts.js draws them
  });
})();
