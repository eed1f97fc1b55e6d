// More tables than fit: show them a page at a time, turning every 15 seconds.
(function () {
  var grid = document.getElementById("lobby-grid"), perPage = +grid.dataset.perPage, page = 0;
  function show() {
    var cards = grid.querySelectorAll(".table-card"), pages = Math.max(1, Math.ceil(cards.length / perPage));
    page = page % pages;
    cards.forEach(function (card, i) { card.hidden = Math.floor(i / perPage) !== page; });
    document.getElementById("screen-pager").textContent = pages > 1 ? "Page " + (page + 1) + " of " + pages : "";
  }
  setInterval(function () { page += 1; show(); }, 15000);
  document.addEventListener("htmx:wsAfterMessage", show);
  show();
})();
