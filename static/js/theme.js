// The colour-blind theme (app.css, html[data-theme="colorblind"]): a screen's address
// picks it (?theme=colorblind or ?theme=standard, for a TV set up once); otherwise the
// switch in the header does, and the browser remembers the choice. Loaded in <head>,
// before the page is drawn, so a page never shows in the other theme first.
(function () {
  var THEMES = ["standard", "colorblind"], KEY = "theme";
  var root = document.documentElement;

  function stored() {
    try { return localStorage.getItem(KEY); } catch (e) { return null; }
  }

  function apply(theme) {
    root.dataset.theme = theme;
    document.querySelectorAll("[data-theme-switch]").forEach(function (b) {
      b.setAttribute("aria-pressed", String(theme === "colorblind"));
    });
    document.dispatchEvent(new CustomEvent("themechange", { detail: { theme: theme } }));
  }

  var asked = new URLSearchParams(location.search).get("theme");
  if (asked !== null && THEMES.indexOf(asked) < 0) {
    console.warn("theme=" + asked + " is not a theme: expected one of " + THEMES.join(", "));
    asked = null;
  }
  var fromUrl = asked !== null;
  root.dataset.theme = asked || (THEMES.indexOf(stored()) >= 0 ? stored() : "standard");

  document.addEventListener("DOMContentLoaded", function () { apply(root.dataset.theme); });
  document.addEventListener("click", function (e) {
    var b = e.target.closest && e.target.closest("[data-theme-switch]");
    if (!b) return;
    var theme = root.dataset.theme === "colorblind" ? "standard" : "colorblind";
    if (!fromUrl) {
      try { localStorage.setItem(KEY, theme); } catch (err) { /* private mode: this page only */ }
    }
    apply(theme);
  });
})();
