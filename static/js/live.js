// Live updates. The server pushes fragments rendered by the page's own templates and
// htmx swaps each top-level element in (hx-ws: by id, or as its hx-swap-oob says).
//
// Versions are "shoe:round:voided:odds:cards" (a lobby card's "shoe:round:voided"), the
// wire format of tables/page_version.py, which documents each number; the two change
// together. Every number only grows within a shoe. Every pushed element carries the version it
// was rendered at. A push is either the whole live part, or a delta for the pages that
// show version `since` (its elements carry data-since): the history's new rows and the
// roads' new marks to add, and the parts that changed. A table page shows the rounds
// of its game info and the odds of its odds panel (pushed on their own when they are
// computed); every element of a push is checked against what the page showed before
// that push. On every (re)connect, and whenever a delta
// does not fit what it shows, the page tells the server what it has ({table:
// version}); the server answers with the whole live part of anything it missed, or,
// when too many pages behind one address ask at once, with when to ask again.
(function () {
  var socket = null;
  var asked = null; // the delta version a resync was last asked for
  var before = null; // the page's version when the push being swapped in arrived

  // The indicator's words, in the page's language, are the template's: its
  // data-text-connecting, data-text-live and data-text-reconnecting.
  function indicator(state, words) {
    var el = document.getElementById("connection");
    if (!el) return;
    el.hidden = false;
    el.className = "connection connection-" + state;
    el.textContent = el.dataset[words] || "";
  }

  // Compare two versions number by number, over the first `fields` numbers if given.
  function compare(a, b, fields) {
    var x = a.split(":"), y = b.split(":"), n = fields || Math.max(x.length, y.length);
    for (var i = 0; i < n; i++) {
      var d = (+x[i] || 0) - (+y[i] || 0);
      if (d) return d;
    }
    return 0;
  }

  function shown() {
    var have = {};
    document.querySelectorAll("[data-table][data-version]").forEach(function (el) {
      have[el.dataset.table] = el.dataset.version;
    });
    var info = document.getElementById("game-info"), odds = document.getElementById("odds");
    if (info && odds && odds.dataset.version) {
      var parts = info.dataset.version.split(":");
      have[info.dataset.table] = parts.slice(0, 3).concat(odds.dataset.version.split(":")[3] || "0", parts[4] || "0").join(":");
    }
    return have;
  }

  function tell() {
    if (socket) socket.send(JSON.stringify({ have: shown() }), document.querySelector("[ws-connect]"));
  }

  document.addEventListener("htmx:wsConnecting", function () { indicator("connecting", "textConnecting"); });
  document.addEventListener("htmx:wsOpen", function (e) {
    indicator("live", "textLive");
    socket = e.detail.socketWrapper;
    asked = null;
    tell();
  });
  document.addEventListener("htmx:wsClose", function () { indicator("offline", "textReconnecting"); });
  document.addEventListener("htmx:wsBeforeMessage", function (e) {
    // Too many pages behind this address asked at once: the server says when to ask again.
    var later = /^<template id="resync-later" data-after="([0-9.]+)">/.exec(e.detail.message || "");
    if (later) {
      e.preventDefault();
      setTimeout(tell, 1000 * +later[1]);
      return;
    }
    var info = document.getElementById("game-info");
    before = info && info.dataset.version;
  });
  document.addEventListener("htmx:wsAfterMessage", function () { before = null; });

  // Each element of a push, before htmx swaps it: drop what is older than the page, and
  // a delta that does not start where the page is.
  document.addEventListener("htmx:oobBeforeSwap", function (e) {
    var d = e.detail;
    // An outerHTML swap hands over a fragment holding the element; the others, the element.
    var pushed = d.fragment.nodeType === Node.DOCUMENT_FRAGMENT_NODE ? d.fragment.firstElementChild : d.fragment;
    if (!pushed || !pushed.dataset || !pushed.dataset.version) return;
    var version = pushed.dataset.version, since = pushed.dataset.since, target = d.target.dataset && d.target.dataset.version;
    var info = document.getElementById("game-info"), page = before || (info && info.dataset.version);
    if (since) {
      if (!page || compare(page, version, 3) >= 0) return e.preventDefault(); // shown already
      if (compare(page, since, 3) !== 0) { // a push went missing: ask for the whole state
        e.preventDefault();
        if (asked !== version) { asked = version; tell(); }
        return;
      }
    } else if (page && compare(version, page, 3) < 0) {
      return e.preventDefault(); // two server processes may push a table's states out of order
    }
    // Nor does an element replace a newer one (a round's odds may come before its push).
    if (target && compare(version, target) < 0) return e.preventDefault();
    // Table rows come in a <template> (the only way the HTML parser keeps them); htmx
    // inserts an element's children, so hand it the template's content.
    if (pushed.tagName === "TEMPLATE") pushed.append(pushed.content);
    // New road marks may bring the road's newest columns into view.
    if (pushed.dataset.view && d.target.ownerSVGElement) d.target.ownerSVGElement.setAttribute("viewBox", pushed.dataset.view);
  });
})();
