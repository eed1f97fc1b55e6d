// Roads that scroll sideways (a table page's, .road-box): each sized to show the whole
// shoe while its cells stay readable; after each push the newest columns come into view,
// and a road's name says when columns are out of view on its left.
// A reversed flex row (app.css) opens on its newest columns without this script; its
// scrollLeft is 0 at the right end and negative to the left of it.
(function () {
  function cellWidth(box) {
    var svg = box.querySelector("svg.road");
    if (!svg || !svg.viewBox.baseVal.height) return 0;
    return svg.getBoundingClientRect().height / (svg.viewBox.baseVal.height / 20); // 20: tables/pages/svg.py's CELL
  }

  // The words are the template's, in the page's language (tables/_road_defs.html).
  function words(count, one, other) {
    var defs = document.getElementById("road-defs"), data = defs ? defs.dataset : {};
    return ((count === 1 ? data[one] : data[other]) || "").replace("{n}", count);
  }

  function mark(box) {
    if (getComputedStyle(box).overflowX === "hidden") return; // a screen's road (display.js) does not scroll
    var frame = box.parentElement, left = box.scrollWidth - box.clientWidth + box.scrollLeft, right = -box.scrollLeft;
    var slot = box.closest(".road-slot"), cell = cellWidth(box);
    var columns = cell ? Math.round(left / cell) : 0, later = cell ? Math.round(right / cell) : 0;
    frame.classList.toggle("has-earlier", left > 1);
    frame.classList.toggle("has-later", right > 1);
    var earlierNote = slot && slot.querySelector(".earlier"), laterNote = slot && slot.querySelector(".later");
    if (earlierNote) {
      earlierNote.hidden = columns < 1;
      earlierNote.textContent = words(columns, "textEarlierOne", "textEarlierOther");
    }
    if (laterNote) {
      laterNote.hidden = later < 1;
      laterNote.textContent = words(later, "textLaterOne", "textLaterOther");
    }
  }

  // A road's cells: as large as its box's --view columns across make them, smaller when
  // the shoe has more columns so the whole road fits its box, never under --min-cell
  // (app.css): past that the box scrolls, its newest columns in view.
  function cellFor(box) {
    var svg = box.querySelector("svg.road"), style = getComputedStyle(box);
    if (!svg || !svg.viewBox.baseVal.width || style.overflowX === "hidden") return 0; // a screen's road: display.js
    var view = parseFloat(style.getPropertyValue("--view")) || 30, least = parseFloat(style.getPropertyValue("--min-cell")) || 14;
    var columns = svg.viewBox.baseVal.width / 20, width = box.clientWidth;
    return width ? Math.max(least, width / Math.max(view, columns)) : 0;
  }

  function size(box, cell) {
    var svg = box.querySelector("svg.road"), width = box.clientWidth;
    if (!cell) return;
    // A road that scrolls shows whole columns at its ends: its cells a shade larger, so
    // the box holds a whole number of them (no half column at the edge it opens on).
    if (svg.viewBox.baseVal.width / 20 * cell > width + 0.5) cell = width / Math.floor(width / cell);
    svg.style.height = 6 * cell + "px";
  }

  // Every road sized; the three derived roads in one cell size, the one the road with
  // most columns needs: marks of one size read as one kind of road.
  function sizeAll() {
    var boxes = Array.prototype.slice.call(document.querySelectorAll(".road-box"));
    var cells = boxes.map(cellFor), derived = Infinity;
    boxes.forEach(function (box, i) {
      if (cells[i] && box.classList.contains("road-box-derived")) derived = Math.min(derived, cells[i]);
    });
    boxes.forEach(function (box, i) {
      size(box, box.classList.contains("road-box-derived") && cells[i] ? derived : cells[i]);
    });
    return boxes;
  }

  function newest() {
    sizeAll().forEach(function (box) {
      box.scrollLeft = 0;
      mark(box);
    });
  }

  document.addEventListener("scroll", function (e) {
    if (e.target.classList && e.target.classList.contains("road-box")) mark(e.target);
  }, true);
  document.addEventListener("DOMContentLoaded", newest);
  document.addEventListener("htmx:wsAfterMessage", newest);
  window.addEventListener("resize", function () { sizeAll().forEach(mark); });

  // The Big Road cells a derived road's mark compared ("col,row" as drawn, space
  // apart), outlined on the Big Road: asked by a mark's tip on the table page
  // (table.js's "roads:compared" event), or by an explanation on the round's desk page
  // while it is pointed at, focused or tapped. A push that redraws the road drops them.
  function outline(compared) {
    var old = document.getElementById("compared"), road = document.getElementById("road-big_road");
    if (old) old.remove();
    if (!compared || !road) return;
    var ns = "http://www.w3.org/2000/svg", group = document.createElementNS(ns, "g");
    group.id = "compared";
    compared.split(" ").filter(Boolean).forEach(function (at) {
      var place = at.split(","), rect = document.createElementNS(ns, "rect");
      rect.setAttribute("class", "compared");
      rect.setAttribute("x", place[0] * 20); // 20: tables/pages/svg.py's CELL
      rect.setAttribute("y", place[1] * 20);
      rect.setAttribute("width", 20);
      rect.setAttribute("height", 20);
      group.appendChild(rect);
    });
    road.appendChild(group);
  }
  document.addEventListener("roads:compared", function (e) { outline(e.detail); });
  function explained(e) {
    var why = e.target.closest && e.target.closest(".why-marks [data-compared]");
    if (why) outline(why.dataset.compared);
  }
  ["mouseover", "focusin", "click"].forEach(function (type) { document.addEventListener(type, explained); });
})();
