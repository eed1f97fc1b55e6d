// The lobby wall. Up to data-per-page tables a page, the pages balanced (14 tables are two
// pages of 7, not 12 and 2) and turning every 15 seconds; the grid of a page is the one
// (columns × rows) that gives its roads the biggest marks, so 1, 2, 6 or 12 tables all
// fill the screen, every card of a page the same size and every page at one scale (its
// cells the smallest any page needs), so the wall does not jump as it turns. Each card's roads are sized so
// their six rows fill what the card has left, smaller (never under what reads from 3 m)
// so the page's whole shoes show from their first column, else their newest columns; a
// pushed card is fitted as it arrives.
(function () {
  var grid = document.getElementById("lobby-grid");
  if (!grid) return;
  var MAX = +grid.dataset.perPage || 12, TURN = 15000;
  var CELL = 20, ROWS = 6; // a road's SVG units per cell, and its rows (tables/pages/svg.py)
  // Columns a card shows at least, side by side (Bead Plate and Big Road together) or
  // stacked (each road the card's width): fewer say too little of the shoe. A card too
  // tall for that (one table on a portrait screen) may show fewer, bigger ones.
  var MIN_SIDE = 14, MIN_STACKED = 12, MIN_TALL = 8;
  var BIG_ENOUGH = 56; // px: a bigger cell reads no better from 3 m, more columns tell more
  var SMALLEST = 24; // px: a smaller cell is hard to read from 3 m, taken only if nothing else fits
  var page = 0, laidOut = "";

  function cards() { return Array.prototype.slice.call(grid.querySelectorAll(".table-card")); }

  // How to draw the roads in a box: side by side (six rows of cells the box's height)
  // or stacked (twelve), with the biggest cells that still show enough columns. Its
  // score weighs the cell's size (up to BIG_ENOUGH) against the height its rows leave
  // empty, then the columns; it compares arrangements, and grids by their cards'.
  function arrangement(width, height, gap) {
    function option(stacked, minColumns, weight) {
      var rows = stacked ? 2 * ROWS : ROWS, across = stacked ? width : width - gap;
      var cell = Math.min((height - (stacked ? gap : 0)) / rows, across / minColumns);
      if (!(cell > 0)) return { stacked: stacked, cell: 0, columns: 0, used: 0, score: 0 };
      var used = (rows * cell + (stacked ? gap : 0)) / height, columns = across / cell;
      if (cell < SMALLEST) weight /= 2;
      var score = weight * Math.min(cell, BIG_ENOUGH) * used * used + (stacked ? 2 : 1) * columns / 1000;
      return { stacked: stacked, cell: cell, columns: columns, used: used, score: score };
    }
    return [option(false, MIN_SIDE, 1), option(true, MIN_STACKED, 1), option(true, MIN_TALL, 0.5)].sort(function (a, b) {
      return b.score - a.score;
    })[0];
  }

  // Show `columns` columns of a road (a fraction shows part of one more, to fill the box),
  // ending one past its newest column, as the table page does; never left of the first
  // column the card drew marks for.
  function view(svg, columns) {
    var marks = svg.querySelector("g"), box = marks && marks.getBBox(), first = 0, last = -1;
    if (box && box.width + box.height > 0) {
      first = Math.floor(box.x / CELL);
      last = Math.floor((box.x + box.width) / CELL);
    }
    var start = Math.max(first, last + 2 - Math.floor(columns));
    svg.setAttribute("viewBox", [start * CELL, 0, columns * CELL, ROWS * CELL].join(" "));
  }

  // The columns a card's roads hold, from the shoe's first to one past the newest (a
  // card draws the whole shoe's marks: tables/templatetags/road_svg.py).
  // Read from the marks' path data, not their box: a card on another page is hidden and
  // has none, and the wall sizes every page for the longest shoe on it.
  function needed(svg) {
    var last = -1;
    (svg ? svg.querySelectorAll("g path") : []).forEach(function (path) {
      var numbers = (path.getAttribute("d") || "").match(/-?[\d.]+/g) || [];
      for (var i = 0; i < numbers.length; i += 2) last = Math.max(last, Math.floor(+numbers[i] / CELL));
    });
    return last + 2;
  }

  // What the cards need to show their whole shoes: the most columns any of them needs,
  // so that every card of the wall, on every page, keeps one cell size.
  function wanted(here) {
    var most = { bead: 1, big: 1 };
    here.forEach(function (card) {
      most.bead = Math.max(most.bead, needed(card.querySelector("svg.road-bead_plate")));
      most.big = Math.max(most.big, needed(card.querySelector("svg.road-big_road")));
    });
    return most;
  }

  // Size a card's roads for the page's shoes (`want`), their cells no bigger than `most`
  // px (the wall's scale); returns the cell it drew them at.
  function fit(card, want, most) {
    var roads = card.querySelector(".card-roads");
    var bead = roads && roads.querySelector("svg.road-bead_plate"), big = roads && roads.querySelector("svg.road-big_road");
    if (!bead || !big) return;
    roads.classList.remove("stacked");
    roads.style.gridTemplateColumns = roads.style.height = "";
    var gap = parseFloat(getComputedStyle(roads).columnGap) || 0;
    var width = roads.clientWidth, height = roads.clientHeight, a = arrangement(width, height, gap);
    // Smaller cells, down to SMALLEST, when that shows the page's whole shoes.
    var across = a.stacked ? width : width - gap, need = a.stacked ? Math.max(want.bead, want.big) : want.bead + want.big;
    var cell = Math.min(a.cell, Math.max(SMALLEST, across / need), most || Infinity), whole = across / cell >= need - 0.01;
    var used = ((a.stacked ? 2 * ROWS : ROWS) * cell + (a.stacked ? gap : 0)) / height;
    roads.classList.toggle("stacked", a.stacked);
    if (used < 0.995) { // rows of square cells fill no more than this: the card centres them
      roads.style.height = used * height + "px";
    }
    if (a.stacked) {
      view(bead, width / cell);
      view(big, width / cell);
    } else {
      // The Bead Plate's whole shoe when it all fits, else a third, as on a lobby card.
      var beadColumns = whole ? want.bead : Math.round(across / cell / 3);
      roads.style.gridTemplateColumns = beadColumns * cell + "px minmax(0, 1fr)";
      view(bead, beadColumns);
      view(big, (across - beadColumns * cell) / cell);
    }
    card.dataset.cell = cell.toFixed(1); // for the tests and for whoever looks
    return cell;
  }

  // The grid for `count` cards: every columns × rows that holds them, measured on the
  // page, keeping the one whose first card gets the biggest cells with enough columns
  // (a grid whose cards are too narrow for that only if no other grid does better) and
  // the fewest empty slots. Every card of the page is the size of the first (screen.css).
  function layout(count, sample) {
    var best = null;
    for (var cols = 1; cols <= count; cols++) {
      var rows = Math.ceil(count / cols);
      if ((cols - 1) * rows >= count) continue; // a column fewer holds them in as many rows
      grid.style.setProperty("--cols", cols);
      grid.style.setProperty("--rows", rows);
      var roads = sample.querySelector(".card-roads");
      if (!roads) break;
      var gap = parseFloat(getComputedStyle(roads).columnGap) || 0;
      // Slots the page leaves empty are screen its tables do not use.
      var a = arrangement(roads.clientWidth, roads.clientHeight, gap);
      var score = a.score * count / (cols * rows);
      if (!best || score > best.score) best = { cols: cols, rows: rows, score: score };
    }
    if (best) {
      grid.style.setProperty("--cols", best.cols);
      grid.style.setProperty("--rows", best.rows);
    }
  }

  // Each card's name whole, its good roads (or its last winner) beside it on the line:
  // when some card of the wall has no room there for the first of them, every card puts
  // them on a line of their own under the name (screen.css), so that no badge lies over
  // a name and the cards stay alike from page to page. `pages` are the wall's pages.
  function heads(pages) {
    grid.classList.remove("heads-stacked");
    var crowded = pages.some(function (here) {
      reveal(pages, here);
      return here.some(function (card) {
        var shelf = card.querySelector(".card-badges"), first = shelf && shelf.firstElementChild;
        return !!first && first.getBoundingClientRect().width > shelf.clientWidth + 0.5;
      });
    });
    grid.classList.toggle("heads-stacked", crowded);
  }

  // Tables of one name told apart: each one's table ID shown beside its name.
  function named(all) {
    var seen = {};
    function name(card) { var h = card.querySelector("h2"); return h ? h.textContent.trim() : ""; }
    all.forEach(function (card) { seen[name(card)] = (seen[name(card)] || 0) + 1; });
    all.forEach(function (card) {
      var id = card.querySelector(".table-id");
      if (id) id.hidden = !(seen[name(card)] > 1);
    });
  }

  // Show the cards of one page (`here`, one of `pages`), hide the others'.
  function reveal(pages, here) {
    pages.forEach(function (cards) { cards.forEach(function (card) { card.hidden = cards !== here; }); });
  }

  function pager(count, pages, turned) {
    var el = document.getElementById("screen-pager");
    el.innerHTML = "";
    // The words are the template's, in the page's language: {n}, {page} and {pages} stand
    // for the numbers.
    var words = el.dataset, b = document.createElement("b");
    var tables = (count === 1 ? words.textTablesOne : words.textTablesOther).replace("{n}", count);
    b.textContent = words.textPage.replace("{page}", page + 1).replace("{pages}", pages);
    el.append(tables + " · ", b);
    var bar = document.querySelector(".wall-bar");
    if (!turned) return;
    bar.classList.remove("turning");
    if (pages > 1) {
      void bar.offsetWidth; // restart the animation
      bar.style.setProperty("--turn", TURN / 1000 + "s");
      bar.classList.add("turning");
    }
  }

  function show(turned) {
    var all = cards(), count = Math.max(1, Math.ceil(all.length / MAX)), per = Math.ceil(all.length / count);
    var pages = [];
    for (var p = 0; p < count; p++) pages.push(all.slice(p * per, (p + 1) * per));
    page = page % count;
    // Every page of the wall at one scale, so it does not jump as it turns: laid out for
    // the fullest page (a shorter last page leaves slots empty), its heads alike on every
    // page, and its roads' cells the smallest any page needs for the wall's shoes.
    var key = per + ":" + innerWidth + "x" + innerHeight;
    if (all.length && key !== laidOut) {
      reveal(pages, pages[0]);
      layout(per, pages[0][0]);
      laidOut = key;
    }
    named(all);
    heads(pages);
    var want = wanted(all), scale = Infinity;
    pages.forEach(function (here) {
      if (pages.length > 1) reveal(pages, here);
      here.forEach(function (card) { scale = Math.min(scale, fit(card, want) || Infinity); });
    });
    reveal(pages, pages[page]);
    pages[page].forEach(function (card) { fit(card, want, scale); });
    pager(all.length, count, turned !== false);
  }

  function tick() {
    var now = new Date(), el = document.getElementById("wall-clock");
    // Hours and minutes as the page's language writes them, on a 24-hour clock.
    el.textContent = now.toLocaleTimeString(document.documentElement.lang || undefined, { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
    el.dateTime = now.toISOString();
  }

  setInterval(function () { page += 1; show(); }, TURN);
  setInterval(tick, 1000);
  // A push replaces a card (unfitted, not hidden): fit it, and keep the page as it was.
  document.addEventListener("htmx:wsAfterMessage", function () { show(false); });
  addEventListener("resize", function () { show(false); });
  tick();
  show();
})();
