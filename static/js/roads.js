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

  function mark(box) {
    if (getComputedStyle(box).overflowX === "hidden") return; // a screen's road (display.js) does not scroll
    var frame = box.parentElement, left = box.scrollWidth - box.clientWidth + box.scrollLeft, right = -box.scrollLeft;
    var slot = box.closest(".road-slot"), earlier = slot && slot.querySelector(".earlier"), cell = cellWidth(box), columns = cell ? Math.round(left / cell) : 0;
    frame.classList.toggle("has-earlier", left > 1);
    frame.classList.toggle("has-later", right > 1);
    if (earlier) {
      earlier.hidden = columns < 1;
      // The words are the template's, in the page's language (tables/_road_defs.html).
      var defs = document.getElementById("road-defs"), words = defs ? defs.dataset : {};
      earlier.textContent = ((columns === 1 ? words.textEarlierOne : words.textEarlierOther) || "").replace("{n}", columns);
    }
  }

  // A road's cells: as large as its box's --view columns across make them, smaller when
  // the shoe has more columns so the whole road fits its box, never under --min-cell
  // (app.css): past that the box scrolls, its newest columns in view.
  function size(box) {
    var svg = box.querySelector("svg.road"), style = getComputedStyle(box);
    if (!svg || !svg.viewBox.baseVal.width || style.overflowX === "hidden") return; // a screen's road: display.js
    var view = parseFloat(style.getPropertyValue("--view")) || 30, least = parseFloat(style.getPropertyValue("--min-cell")) || 14;
    var columns = svg.viewBox.baseVal.width / 20, width = box.clientWidth;
    if (!width) return;
    svg.style.height = 6 * Math.max(least, width / Math.max(view, columns)) + "px";
  }

  function newest() {
    document.querySelectorAll(".road-box").forEach(function (box) {
      size(box);
      box.scrollLeft = 0;
      mark(box);
    });
  }

  document.addEventListener("scroll", function (e) {
    if (e.target.classList && e.target.classList.contains("road-box")) mark(e.target);
  }, true);
  document.addEventListener("DOMContentLoaded", newest);
  document.addEventListener("htmx:wsAfterMessage", newest);
  window.addEventListener("resize", function () {
    document.querySelectorAll(".road-box").forEach(function (box) { size(box); mark(box); });
  });

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
