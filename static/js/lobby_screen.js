// The lobby wall. Up to data-per-page tables a page, the pages balanced (14 tables are two
// pages of 7, not 12 and 2) and turning every 15 seconds; the grid of a page is the one
// (columns × rows) that gives its roads the biggest marks, so 1, 2, 6 or 12 tables all
// fill the screen, every card of a page the same size and every page at one scale (its
// cells the smallest any page needs), so the wall does not jump as it turns. Each card's roads are sized so
// their six rows fill what the card has left, smaller (never under what reads from 3 m)
// so the page's whole shoes show from their first column, else their newest columns and
// a note of how many earlier ones are left out. The wall is measured once per layout (its
// tables a page, the screen, a card's heads); a push only writes the sizes worked out
// then into the card it brings (no layout is read per push: a TV box keeps up with
// every table dealing at once).
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
  var page = 0;
  var measured = null; // the wall as last measured: {key, width, height, gaps, a} of a card's roads
  var looked = {}; // each table's good roads when its card's heads were last looked at
  var shelves = {}; // each table's room beside its name for good roads (px), as last measured
  var badge = null; // a good road's font and its padding and borders (px), as last measured
  var ink = document.createElement("canvas").getContext("2d"); // measures a text without a layout

  function cards() { return Array.prototype.slice.call(grid.querySelectorAll(".table-card")); }

  // How to draw the roads in a box: side by side (six rows of cells the box's height)
  // or stacked (twelve), with the biggest cells that still show enough columns. Its
  // score weighs the cell's size (up to BIG_ENOUGH) against the height its rows leave
  // empty, then the columns; it compares arrangements, and grids by their cards'.
  function arrangement(width, height, gaps) {
    function option(stacked, minColumns, weight) {
      var rows = stacked ? 2 * ROWS : ROWS, across = stacked ? width : width - gaps.across;
      var cell = Math.min((height - (stacked ? gaps.down : 0)) / rows, across / minColumns);
      if (!(cell > 0)) return { stacked: stacked, cell: 0, columns: 0, used: 0, score: 0 };
      var used = (rows * cell + (stacked ? gaps.down : 0)) / height, columns = across / cell;
      if (cell < SMALLEST) weight /= 2;
      var score = weight * Math.min(cell, BIG_ENOUGH) * used * used + (stacked ? 2 : 1) * columns / 1000;
      return { stacked: stacked, cell: cell, columns: columns, used: used, score: score };
    }
    return [option(false, MIN_SIDE, 1), option(true, MIN_STACKED, 1), option(true, MIN_TALL, 0.5)].sort(function (a, b) {
      return b.score - a.score;
    })[0];
  }

  // The space between a card's two roads side by side (across) and one above the other
  // (down: room for the lower road's note of columns left out, screen.css).
  function gaps(roads) {
    var style = getComputedStyle(roads);
    return { across: parseFloat(style.columnGap) || 0, down: parseFloat(style.rowGap) || 0 };
  }

  // Whether a card's facts run past its side (a label or a count cut off by the card).
  function labelsCut(card) {
    var facts = card.querySelector(".facts");
    return !!facts && facts.scrollWidth > facts.clientWidth + 1;
  }

  // The first and last columns a road's marks are in (-1 with none), read from their path
  // data, not their box: a card on another page is hidden and has none, and reading a
  // box would lay the page out.
  function span(svg) {
    var first = Infinity, last = -1;
    (svg ? svg.querySelectorAll("g path") : []).forEach(function (path) {
      var numbers = (path.getAttribute("d") || "").match(/-?[\d.]+/g) || [];
      for (var i = 0; i < numbers.length; i += 2) {
        var column = Math.floor(+numbers[i] / CELL);
        first = Math.min(first, column);
        last = Math.max(last, column);
      }
    });
    return { first: last < 0 ? 0 : first, last: last };
  }

  // Show `columns` columns of a road (a fraction shows part of one more, to fill the box),
  // ending one past its newest column, as the table page does; never left of the first
  // column the card drew marks for. Columns left out are said in the road's note.
  function view(svg, columns) {
    // (A hair under a whole column is a whole one: sizes worked out to a fraction of a pixel.)
    var marks = span(svg), start = Math.max(marks.first, marks.last + 2 - Math.floor(columns + 1e-6));
    svg.setAttribute("viewBox", [start * CELL, 0, columns * CELL, ROWS * CELL].join(" "));
    // The note is the road's box's data-earlier, which screen.css shows above it: no element
    // of its own, so a pushed card carries not a byte more for it.
    var holder = svg.parentElement, left = start - marks.first;
    if (left < 1) {
      delete holder.dataset.earlier;
      return;
    }
    // The words are the template's, in the page's language (tables/_road_defs.html).
    var defs = document.getElementById("road-defs"), words = defs ? defs.dataset : {};
    holder.dataset.earlier = ((left === 1 ? words.textEarlierOne : words.textEarlierOther) || "").replace("{n}", left);
  }

  // The columns a card's roads hold, from the shoe's first to one past the newest (a
  // card draws the whole shoe's marks: tables/templatetags/road_svg.py).
  function needed(svg) {
    return span(svg).last + 2;
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

  // The sizes of every card's roads for the wall's shoes (`want`), in a card's roads box as
  // measured (`m`): side by side or stacked as the box suits best, the cells smaller (down
  // to SMALLEST) when that shows the wall's whole shoes. Arithmetic only: no layout.
  function sizes(m, want) {
    var a = m.a, across = a.stacked ? m.width : m.width - m.gaps.across;
    var need = a.stacked ? Math.max(want.bead, want.big) : want.bead + want.big;
    var cell = Math.min(a.cell, Math.max(SMALLEST, across / need)), whole = across / cell >= need - 0.01;
    return {
      stacked: a.stacked, cell: cell, width: m.width, height: m.height, across: across,
      used: ((a.stacked ? 2 * ROWS : ROWS) * cell + (a.stacked ? m.gaps.down : 0)) / m.height,
      // The Bead Plate's whole shoe when it all fits, else a third, as on a lobby card.
      beadColumns: a.stacked ? 0 : whole ? want.bead : Math.round(across / cell / 3)
    };
  }

  // Draw a card's roads at the sizes `s` (writes only); `key` marks the card as drawn so.
  function apply(card, s, key) {
    var roads = card.querySelector(".card-roads");
    var bead = roads && roads.querySelector("svg.road-bead_plate"), big = roads && roads.querySelector("svg.road-big_road");
    if (!bead || !big) return;
    roads.classList.toggle("stacked", s.stacked);
    // Rows of square cells that fill less than the box: the card centres them.
    roads.style.height = s.used < 0.995 ? s.used * s.height + "px" : "";
    if (s.stacked) {
      roads.style.gridTemplateColumns = "";
      view(bead, s.width / s.cell);
      view(big, s.width / s.cell);
    } else {
      roads.style.gridTemplateColumns = s.beadColumns * s.cell + "px minmax(0, 1fr)";
      view(bead, s.beadColumns);
      view(big, (s.across - s.beadColumns * s.cell) / s.cell);
    }
    card.dataset.cell = s.cell.toFixed(1); // for the tests and for whoever looks
    card.dataset.fitted = key;
  }

  // Measure the wall for `per` tables a page: its grid, its cards' heads, and the box a
  // card leaves its roads (every card of every page is that size: screen.css).
  function measure(pages, per, key) {
    reveal(pages, pages[0]);
    layout(per, pages[0][0]);
    heads(pages);
    reveal(pages, pages[0]);
    var roads = pages[0][0].querySelector(".card-roads");
    if (!roads) return null;
    roads.classList.remove("stacked");
    roads.style.gridTemplateColumns = roads.style.height = "";
    // Its box as laid out, to the fraction of a pixel (clientWidth rounds, up as often as
    // not: cells a hair too large for it would be drawn smaller than worked out).
    var g = gaps(roads), box = roads.getBoundingClientRect();
    return { key: key, width: box.width, height: box.height, gaps: g, a: arrangement(box.width, box.height, g) };
  }

  // Whether a card that came in a push has no room beside its name for its first good
  // road, on a wall whose cards keep their good roads there (one look, at that card).
  // Its badge's width is worked out from its text in the badges' font, against the room its
  // table's name left when the wall was measured (a name does not change in a push); what
  // was never measured sends the wall to be measured again.
  function crowded(card) {
    var slug = card.dataset.table, roads = card.dataset.goodRoads || "", same = looked[slug] === roads;
    looked[slug] = roads;
    if (same || !roads || grid.classList.contains("heads-stacked")) return false;
    var first = card.querySelector(".card-badges .badge");
    if (!first) return false;
    if (!badge || shelves[slug] === undefined) return true;
    ink.font = badge.font;
    return ink.measureText(first.textContent.trim()).width + badge.extra > shelves[slug] + 0.5;
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
      // Slots the page leaves empty are screen its tables do not use; a card whose facts'
      // labels are cut reads worse than one whose roads are a little smaller.
      var a = arrangement(roads.clientWidth, roads.clientHeight, gaps(roads));
      var score = a.score * count / (cols * rows) * (labelsCut(sample) ? 0.5 : 1);
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
    var tight = false;
    pages.forEach(function (here) {
      reveal(pages, here);
      here.forEach(function (card) {
        var shelf = card.querySelector(".card-badges"), first = shelf && shelf.firstElementChild;
        looked[card.dataset.table] = card.dataset.goodRoads || "";
        shelves[card.dataset.table] = shelf ? shelf.clientWidth : 0;
        if (first && first.classList.contains("badge") && !badge) {
          var style = getComputedStyle(first);
          badge = {
            font: [style.fontStyle, style.fontWeight, style.fontSize, style.fontFamily].join(" "),
            extra: ["paddingLeft", "paddingRight", "borderLeftWidth", "borderRightWidth"].reduce(function (sum, name) {
              return sum + (parseFloat(style[name]) || 0);
            }, 0)
          };
        }
        tight = tight || (!!first && first.getBoundingClientRect().width > shelf.clientWidth + 0.5);
      });
    });
    grid.classList.toggle("heads-stacked", tight);
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
    named(all);
    // Every page of the wall at one scale, so it does not jump as it turns: laid out for
    // the fullest page (a shorter last page leaves slots empty), its heads alike on every
    // page, and its roads' cells the smallest any page needs for the wall's shoes. Measured
    // again only when the screen, the tables a page or a new card's heads ask for it.
    var key = per + ":" + innerWidth + "x" + innerHeight;
    var fresh = all.filter(function (card) { return card.dataset.fitted === undefined; });
    if (all.length && (!measured || measured.key !== key || fresh.some(crowded))) {
      measured = measure(pages, per, key);
    }
    if (measured && all.length) {
      var s = sizes(measured, wanted(all)), drawn = measured.key + ":" + s.cell.toFixed(2) + ":" + s.beadColumns;
      // A card already drawn at these sizes is left alone; a pushed one (new) is drawn.
      all.forEach(function (card) { if (card.dataset.fitted !== drawn) apply(card, s, drawn); });
    }
    reveal(pages, pages[page]);
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
