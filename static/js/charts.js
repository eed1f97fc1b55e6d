// Plotly charts: each figure comes as JSON beside its chart (json_script); draw them on
// load, and again whenever a live update swaps them in.
(function () {
  function drawCharts() {
    if (!window.Plotly) return;
    document.querySelectorAll("[data-chart]").forEach(function (el) {
      var figure = JSON.parse(document.getElementById(el.dataset.chart).textContent);
      Plotly.react(el, figure.data, figure.layout, { displayModeBar: false, responsive: true });
    });
  }
  window.addEventListener("load", drawCharts);
  document.addEventListener("htmx:wsAfterMessage", drawCharts);
})();
