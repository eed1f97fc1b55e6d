// The display beside a table (tables/display.html). live.js swaps in the table page's
// pushes; this script fits each road to the box the layout gives it, and announces each
// new round for a few seconds by showing the last round's own result large in its panel
// (display.css, body[data-announcing]): nothing the round changed is covered. It keeps no
// state per push (a few strings on the roads, one timer): the display runs for days.
(function () {
  var CELL = 20, ROWS = 6; // SVG units per cell and rows of every road (tables/pages/svg.py)
  var seconds = +document.body.dataset.bannerSeconds || 5;
  var announced = null; // "shoe:round" the display showed last
  var timer = null;

  // The derived roads' cells are at most this share of the Big Road's: it is the main road.
  var DERIVED_SHARE = 0.7;
  // A Bead Plate shows a whole shoe's columns (13–14, and one to come) across its box.
  var ACROSS = { bead_plate: 15 };

  // A road's view as the server drew it says where its marks start (the view's first
  // column, the shoe's first). The display shows the road in its box as a casino's board
  // does: cells of the size its area gives it (display.css: the Big Road's is --big-cell,
  // one size all shoe long), the grid running on to the box's right edge, and when the
  // shoe has more columns than the box holds, its newest ones, saying how many earlier
  // ones are off screen. Nothing here changes a box's size, and every box is read before
  // any road is drawn: a push lays the screen out once for the script, once to paint.
  function measure(svg) {
    var box = svg.parentElement, view = svg.getAttribute("viewBox");
    if (!box || !view) return null;
    if (view !== svg.dataset.fitted) svg.dataset.server = view; // a push drew it again or moved it
    var name = (/road-(\w+)/.exec(svg.getAttribute("class")) || [])[1];
    return { svg: svg, name: name, width: box.clientWidth, height: box.clientHeight };
  }

  // The newest column with a mark, read from the marks' path data (no layout: a box would
  // need one), or one before `first` with none.
  function newest(svg, first) {
    var last = first - 1;
    svg.querySelectorAll("g path").forEach(function (path) {
      var numbers = (path.getAttribute("d") || "").match(/-?[\d.]+/g) || [];
      for (var i = 0; i < numbers.length; i += 2) last = Math.max(last, Math.floor(+numbers[i] / CELL));
    });
    return last;
  }

  // The largest cell a road's box gives it, no larger than `most`.
  function room(road, most) {
    return Math.min(most || Infinity, road.height / ROWS, road.width / (ACROSS[road.name] || 1));
  }

  // Draw a measured road in cells of `cell` px (writes only).
  function place(road, cell) {
    var svg = road.svg, width = road.width;
    if (!width || !road.height || !isFinite(cell)) return;
    var first = Number(svg.dataset.server.split(" ")[0]) / CELL;
    var shown = Math.max(1, Math.floor(width / cell));
    var start = Math.max(first, newest(svg, first) + 2 - shown);
    var fitted = start * CELL + " 0 " + shown * CELL + " " + ROWS * CELL;
    svg.dataset.fitted = fitted;
    svg.dataset.cell = cell.toFixed(1); // for the tests and for whoever looks
    svg.setAttribute("viewBox", fitted);
    svg.style.width = shown * cell + "px";
    svg.style.height = ROWS * cell + "px";
    svg.style.left = (width - shown * cell) / 2 + "px";
    // Columns the box has no room for are not lost from sight without a word.
    var slot = svg.closest(".road-slot"), earlier = slot && slot.querySelector(".earlier");
    if (earlier) {
      earlier.hidden = start < 1;
      // The words are the template's, in the page's language (tables/_road_defs.html).
      var defs = document.getElementById("road-defs"), words = defs ? defs.dataset : {};
      earlier.textContent = ((start === 1 ? words.textEarlierOne : words.textEarlierOther) || "").replace("{n}", start);
    }
  }

  function fitAll() {
    var roads = Array.prototype.slice.call(document.querySelectorAll("#display svg.road")).map(measure).filter(Boolean);
    var big = null, bead = null, derived = [];
    roads.forEach(function (road) {
      if (road.name === "big_road") big = road;
      else if (road.name === "bead_plate") bead = road;
      else derived.push(road);
    });
    // The Big Road first: no other road's cells are larger.
    var main = big ? room(big) : Infinity;
    if (big) place(big, main);
    if (bead) place(bead, room(bead, main));
    // The three derived roads in one cell size, the smallest their boxes allow: marks of
    // one size read as one kind of road, side by side or one above another.
    var one = Math.min.apply(null, derived.map(function (road) { return room(road); }).concat([main * DERIVED_SHARE]));
    derived.forEach(function (road) { place(road, one); });
  }

  function quiet() {
    delete document.body.dataset.announcing;
    timer = null;
  }

  // "Banker wins", "Player wins" or "Tie" large when a new round shows: the panel's own
  // result, so the screen says it once; on the body, so a push that redraws the panel
  // during those seconds keeps it large.
  function announce() {
    var info = document.getElementById("game-info"), verdict = document.querySelector("#last-round .verdict");
    if (!info || !info.dataset.version) return;
    if (document.querySelector("#last-round.dealing")) { quiet(); return; } // the next round's cards are coming
    var round = info.dataset.version.split(":").slice(0, 2).join(":"), before = announced;
    if (round === before) return;
    announced = round;
    if (before === null || !verdict || round.split(":")[1] === "0") return; // the state the display opened on, or a new shoe
    var winner = /result-([BPT])/.exec(verdict.className);
    document.body.dataset.announcing = winner ? winner[1] : "";
    if (timer) clearTimeout(timer);
    timer = setTimeout(quiet, seconds * 1000);
  }

  document.addEventListener("htmx:wsAfterMessage", function () {
    fitAll();
    announce();
  });
  window.addEventListener("resize", fitAll);
  fitAll();
  announce();
})();
