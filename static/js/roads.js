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
})();
