// The table page: the shoe picker, the ask buttons, and what a road mark stands for.
(function () {
  // Picking another shoe shows it at once (the picker lives in the history, which live
  // updates replace, so the listener sits on the document).
  document.addEventListener("change", function (e) {
    if (e.target.matches && e.target.matches("[data-submit-on-change]")) e.target.form.submit();
  });

  // Ask controls: show the would-be marks while a button is hovered or toggled on. The
  // state lives on <body>, so it survives the roads being swapped by a live update.
  function button(e) { return e.target.closest && e.target.closest("[data-ask]"); }
  document.addEventListener("mouseover", function (e) {
    var b = button(e);
    if (!b) return;
    document.body.classList.add("asking-" + b.dataset.ask);
    fetchAsks();
  });
  document.addEventListener("mouseout", function (e) {
    var b = button(e);
    if (b && !document.body.classList.contains("asking-" + b.dataset.ask + "-on")) document.body.classList.remove("asking-" + b.dataset.ask);
  });
  document.addEventListener("click", function (e) {
    var b = button(e);
    if (!b) return;
    var on = !document.body.classList.contains("asking-" + b.dataset.ask + "-on");
    document.body.classList.toggle("asking-" + b.dataset.ask + "-on", on);
    document.body.classList.toggle("asking-" + b.dataset.ask, on);
    if (on) fetchAsks();
  });

  // The ask marks come with the roads when the page loads them whole; a round's push
  // leaves them out (tables/_table_delta.html), so a page that asks after one fetches
  // them for the state it shows (tables.pages.views.road_asks), and again after every
  // push while a button is on. An answer a newer round overtook is dropped.
  function rounds(version) { return (version || "").split(":").slice(0, 3).join(":"); }
  function fetchAsks() {
    var roads = document.getElementById("roads"), info = document.getElementById("game-info");
    if (!roads || !roads.dataset.asks || !info || !info.dataset.version) return;
    var state = rounds(info.dataset.version);
    if (rounds(roads.dataset.asksAt || roads.dataset.version) === state) return;  // they show it already
    var url = roads.dataset.asks + "?" + new URLSearchParams({ shoe: state.split(":")[0], v: state });
    fetch(url).then(function (answer) { return answer.ok ? answer.text() : ""; }).then(function (html) {
      var asks = new DOMParser().parseFromString(html, "text/html").getElementById("road-asks");
      if (!asks || rounds(asks.dataset.version) !== rounds(info.dataset.version)) return;
      asks.querySelectorAll("svg[data-road]").forEach(function (svg) {
        var now = document.getElementById("now-" + svg.dataset.road);
        if (!now) return;
        now.querySelectorAll(".ask-B, .ask-P").forEach(function (mark) { mark.remove(); });
        now.append.apply(now, Array.from(svg.childNodes));
      });
      roads.dataset.asksAt = state;
    }).catch(function () {});  // offline for a moment: the marks come with the next ask
  }
  document.addEventListener("htmx:wsAfterMessage", function () {
    if (/\basking-[BP]\b/.test(document.body.className)) fetchAsks();
  });

  // What a road mark stands for: hovering (or tapping) a cell of a road asks the server
  // for its round, in the page's language (a screen's may come from its address alone). The address names the shoe's state, so the browser keeps each answer
  // until a round changes it.
  var wanted = null; // the address of the cell under the pointer
  function cellAt(e) {
    var road = e.target.closest && e.target.closest("#roads svg.road"), roads = document.getElementById("roads");
    var info = document.getElementById("game-info");
    if (!road || !roads || !info) return null;
    var p = new DOMPoint(e.clientX, e.clientY).matrixTransform(road.getScreenCTM().inverse());
    var cell = +roads.dataset.cell, col = Math.floor(p.x / cell), row = Math.floor(p.y / cell), state = info.dataset.version.split(":");
    var box = road.getBoundingClientRect(), scale = box.width / road.viewBox.baseVal.width;
    return {
      url: roads.dataset.tips + "?" + new URLSearchParams({ shoe: state[0], road: road.id.replace("road-", ""), col: col, row: row, v: state.slice(0, 3).join(":"), lang: document.documentElement.lang }),
      left: box.left + (col * cell - road.viewBox.baseVal.x) * scale,
      top: box.top + (row + 1) * cell * scale,
    };
  }
  function hide() {
    var tip = document.getElementById("road-tip");
    wanted = null;
    if (tip) tip.hidden = true;
    outline(null);
  }
  // A derived road's mark names the Big Road cells it compared: roads.js outlines them
  // while its tip shows.
  function outline(tip) {
    var why = tip && !tip.hidden && tip.querySelector("[data-compared]");
    document.dispatchEvent(new CustomEvent("roads:compared", { detail: why ? why.dataset.compared : "" }));
  }
  // On a phone the tip is a sheet along the screen's bottom (app.css): when it would lie
  // over the tapped mark, the page scrolls the mark up to just above it.
  function uncover(tip, markBottom) {
    if (tip.hidden || getComputedStyle(tip).position !== "fixed") return;
    var sheetTop = tip.getBoundingClientRect().top;
    if (markBottom > sheetTop - 8) window.scrollBy(0, markBottom - sheetTop + 16);
  }
  function point(e) {
    var at = cellAt(e), tip = document.getElementById("road-tip");
    if (!at || !tip) return hide();
    if (at.url === wanted) return;
    wanted = at.url;
    tip.hidden = true;
    outline(null);
    tip.style.left = window.scrollX + at.left + "px";
    tip.style.top = window.scrollY + at.top + 4 + "px";
    var show = function () {
      if (wanted !== at.url || tip.dataset.url !== at.url) return;
      tip.hidden = !tip.firstElementChild;
      outline(tip);
      uncover(tip, at.top);
    };
    if (tip.dataset.url === at.url) return show();
    tip.dataset.url = at.url;
    htmx.ajax("GET", at.url, { target: tip, swap: "innerHTML" }).then(show);
  }
  document.addEventListener("mousemove", point);
  document.addEventListener("click", point);
  document.addEventListener("mouseout", function (e) { if (cellAt(e) && !e.relatedTarget) hide(); });
})();
