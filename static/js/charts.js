// Plotly charts: each figure comes as JSON beside its chart (json_script); draw them on
// load, and again whenever a live update swaps them in.
(function () {
  // On a phone (the width app.css's Phones section starts at) a chart gives its plot the
  // whole width: its legend goes in rows under the plot, in room added below it, where
  // it covers no line or bar.
  var phone = window.matchMedia("(max-width: 640px)");
  function fitted(el, figure) {
    var layout = figure.layout, width = el.clientWidth;
    if (!phone.matches || !width || layout.showlegend === false) return layout;
    var named = figure.data.filter(function (trace) { return trace.name && trace.showlegend !== false; }).length;
    var room = Math.ceil(named / Math.max(1, Math.floor(width / 120))) * 22 + 12;
    var margin = Object.assign({}, layout.margin);
    margin.b = (margin.b || 30) + room + (layout.xaxis && layout.xaxis.title ? 18 : 0);
    var legend = { orientation: "h", x: 0, xanchor: "left", y: 0, yref: "container", yanchor: "bottom" };
    return Object.assign({}, layout, {
      height: (layout.height || 220) + room, margin: margin, legend: Object.assign({}, layout.legend, legend),
    });
  }
  function drawCharts() {
    if (!window.Plotly) return;
    document.querySelectorAll("[data-chart]").forEach(function (el) {
      var figure = JSON.parse(document.getElementById(el.dataset.chart).textContent);
      Plotly.react(el, figure.data, fitted(el, figure), { displayModeBar: false, responsive: true });
    });
  }
  window.addEventListener("load", drawCharts);
  document.addEventListener("htmx:wsAfterMessage", drawCharts);
  phone.addEventListener("change", drawCharts);  // a tablet turned, a window resized
})();
