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

  // A road's view as the server drew it says where its marks start (the view's first
  // column); the display shows as many columns as fit its box at the box's height, in
  // square cells, ending one past the newest: a road fills its box, its grid running on
  // past the marks early in a shoe, as on a casino's board.
  function fit(svg) {
    var box = svg.parentElement, view = svg.getAttribute("viewBox");
    if (!box || !view) return;
    if (view !== svg.dataset.fitted) svg.dataset.server = view; // a push drew it again or moved it
    var first = Number(svg.dataset.server.split(" ")[0]) / CELL;
    var width = box.clientWidth, height = box.clientHeight;
    if (!width || !height) return;
    var cell = height / ROWS, shown = Math.max(1, Math.floor(width / cell));
    var marks = svg.querySelector("g"), newest = -1;
    if (marks && marks.childElementCount) {
      var b = marks.getBBox();
      newest = Math.floor((b.x + b.width) / CELL);
    }
    var start = Math.max(first, newest + 2 - shown);
    var fitted = start * CELL + " 0 " + shown * CELL + " " + ROWS * CELL;
    svg.dataset.fitted = fitted;
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
    document.querySelectorAll("#display svg.road").forEach(fit);
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
