// Plotly charts: each figure comes as JSON beside its chart (json_script); draw them on
// load, again whenever a live update swaps them in, and when the theme changes.
(function () {
  // The colour-blind theme's colours (Okabe-Ito) for the seed's, as tables/pages/charts.py
  // writes them: lighter than the roads' (app.css), as a chart's lines lie on the dark panel.
  var COLOURBLIND = { "#d9342b": "#d55e00", "#1f6fd1": "#56b4e9", "#1e9e4a": "#009e73" };

  // What every chart's layout shares (tables/pages/charts.py's BASE_LAYOUT, which must say the
  // same); a figure's own layout replaces a key whole.
  var BASE_LAYOUT = {
    paper_bgcolor: "rgba(0,0,0,0)", plot_bgcolor: "rgba(0,0,0,0)", font: { color: "#eef3ef", size: 12 },
    margin: { l: 40, r: 10, t: 30, b: 30 }, height: 220, showlegend: true, legend: { orientation: "h", y: 1.18, x: 0 },
  };

  // On a phone (the width app.css's Phones section starts at) a chart gives its plot the
  // whole width: its legend goes under the plot, in room added below it, where it covers
  // no line or bar, in as many equal columns as its longest name allows (measured in the
  // legend's font: names differ in length from one language to another), so that every
  // entry shows and none needs the legend's own scrollbar.
  var phone = window.matchMedia("(max-width: 640px)");
  var SWATCH = 45;  // px plotly puts beside a legend entry's name (its line or box, gaps)
  var ROW = 22;  // px a legend row takes at the charts' 12 px font
  var ruler = document.createElement("canvas").getContext("2d");
  ruler.font = '12px "Open Sans", verdana, arial, sans-serif';  // plotly's own font for a legend
  function nameWidth(name) { return Math.ceil(ruler.measureText(name).width); }
  function fitted(el, figure, layout) {
    var width = el.clientWidth;
    if (!phone.matches || !width || layout.showlegend === false) return layout;
    // A hidden line (visible false: a side bet's odds until it is the player's edge) has no entry.
    var names = figure.data.filter(function (trace) { return trace.name && trace.showlegend !== false && trace.visible !== false; })
      .map(function (trace) { return trace.name; });
    var margin = Object.assign({}, layout.margin);
    // plotly fits a horizontal legend's rows to the plot's width, whatever the legend's x.
    var across = width - (margin.l || 0) - (margin.r || 0);
    var widest = SWATCH + Math.max.apply(null, names.map(nameWidth).concat([0]));
    var columns = Math.max(1, Math.min(names.length, Math.floor(across / widest)));
    var room = Math.ceil(names.length / columns) * ROW + 12;
    margin.b = (margin.b || 30) + room + (layout.xaxis && layout.xaxis.title ? 18 : 0);
    var legend = {
      orientation: "h", x: 0, xref: "container", xanchor: "left", y: 0, yref: "container", yanchor: "bottom",
      entrywidthmode: "pixels", entrywidth: Math.floor(across / columns) - SWATCH - 1,
    };
    return Object.assign({}, layout, {
      height: (layout.height || 220) + room, margin: margin, legend: Object.assign({}, layout.legend, legend),
    });
  }

  // On a phone a figure of many lines (layout.meta.phone "small-multiples", the review
  // page's flat-bet chart) is drawn as one small chart a line, two across, each titled with
  // its line's name, every chart on the same rounds and the same units so they compare at
  // a glance, and no legend to match colours against.
  var MULTIPLE_HEIGHT = 110;  // px a small chart takes, its title included
  function smallMultiples(figure, layout) {
    var count = figure.data.length, rows = Math.ceil(count / 2), low = 0, high = 0;
    figure.data.forEach(function (trace) { trace.y.forEach(function (y) { low = Math.min(low, y); high = Math.max(high, y); }); });
    var data = figure.data.map(function (trace, i) {
      var n = i ? i + 1 : "";
      return Object.assign({}, trace, { xaxis: "x" + n, yaxis: "y" + n, showlegend: false });
    });
    var multiples = Object.assign({}, BASE_LAYOUT, {
      height: rows * MULTIPLE_HEIGHT + 40, showlegend: false, margin: { l: 34, r: 6, t: 24, b: 26 },
      grid: { rows: rows, columns: 2, pattern: "independent", xgap: 0.2, ygap: 0.45 }, annotations: [],
      separators: layout.separators,
    });
    data.forEach(function (trace, i) {
      var n = i ? i + 1 : "";
      multiples["xaxis" + n] = { showgrid: false, tickfont: { size: 9 }, matches: i ? "x" : undefined };
      multiples["yaxis" + n] = { range: [low, high], zeroline: true, zerolinecolor: "#8fa39a", gridcolor: "rgba(255,255,255,.08)", tickfont: { size: 9 } };
      multiples.annotations.push({
        text: trace.name, showarrow: false, xref: "x" + n + " domain", yref: "y" + n + " domain",
        x: 0, y: 1.02, xanchor: "left", yanchor: "bottom", font: { size: 11, color: trace.line.color },
      });
    });
    return { data: data, layout: multiples };
  }

  function recolour(json) {
    if (document.documentElement.dataset.theme !== "colorblind") return json;
    return json.replace(/#(d9342b|1f6fd1|1e9e4a)/gi, function (c) { return COLOURBLIND[c.toLowerCase()]; });
  }

  // Numbers on the axes written as the page's tables write them: "1.234,5" in Vietnamese,
  // "1,234.5" in English (Plotly's separators: the decimal mark, then the thousands').
  function separators() {
    var parts = new Intl.NumberFormat(document.documentElement.lang || "en").formatToParts(1234.5), marks = {};
    parts.forEach(function (part) { marks[part.type] = part.value; });
    return (marks.decimal || ".") + (marks.group || ",");
  }

  function drawCharts() {
    if (!window.Plotly) return;
    var marks = separators();
    document.querySelectorAll("[data-chart]").forEach(function (el) {
      var figure = JSON.parse(recolour(document.getElementById(el.dataset.chart).textContent));
      var layout = Object.assign({ separators: marks }, BASE_LAYOUT, figure.layout);
      if (phone.matches && layout.meta && layout.meta.phone === "small-multiples") {
        var multiples = smallMultiples(figure, layout);
        Plotly.react(el, multiples.data, multiples.layout, { displayModeBar: false, responsive: true });
        return;
      }
      Plotly.react(el, figure.data, fitted(el, figure, layout), { displayModeBar: false, responsive: true });
    });
  }
  window.addEventListener("load", drawCharts);
  document.addEventListener("htmx:wsAfterMessage", drawCharts);
  document.addEventListener("themechange", drawCharts);
  document.addEventListener("charts:swapped", drawCharts);  // a part with charts swapped in (static/js/shoe_desk.js)
  phone.addEventListener("change", drawCharts);  // a tablet turned, a window resized
})();
