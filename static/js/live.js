// Live updates. The server pushes fragments rendered by the page's own templates and
// htmx swaps each top-level element in (hx-ws: by id, or as its hx-swap-oob says).
//
// Versions are "shoe:round:voided:odds:cards" (a lobby card's "shoe:round:voided:cards"), the
// wire format of tables/page_version.py, which documents each number; the two change
// together. Every number only grows within a shoe. A push's first element, and any
// element pushed on its own, carries the version it was rendered at; the elements after
// it in the same push go with it. A push is either the whole live part, or a delta for
// the pages that show version `since` (its first element carries data-since): the
// history's new rows and the roads' new marks to add, the parts that changed, what
// changes each chart (data-change), and the odds stored since (data-odds: the odds they
// start from; or pushed on their own once computed). Each is checked against what the
// page showed before that push. On every (re)connect, and whenever a delta or odds do not
// fit what it shows, the page tells the server what it has ({table: version}); the
// server answers with the whole live part of anything it missed, or, when too many
// pages behind one address ask at once, with when to ask again.
(function () {
  var socket = null;
  var asked = null; // the delta version a resync was last asked for
  var before = null; // the page's version when the push being swapped in arrived
  var beforeOdds = null; // and the odds it showed (its odds panel's version)
  var admitted = null; // whether the push's last element that named a state was swapped in

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
    var info = document.getElementById("game-info"), odds = document.getElementById("odds");
    before = info && info.dataset.version;
    beforeOdds = odds && odds.dataset.version;
    admitted = null;
  });
  document.addEventListener("htmx:wsAfterMessage", function () {
    before = beforeOdds = admitted = null;
    // A round's push leaves the roads' ask marks out (tables/_table_delta.html): those
    // drawn for a state the page has left go (static/js/table.js fetches the new ones
    // when a player asks). Marks drawn with the roads or fetched since name their state.
    var roads = document.getElementById("roads"), info = document.getElementById("game-info");
    if (!roads || !info || !info.dataset.version) return;
    if (compare(roads.dataset.asksAt || roads.dataset.version || "", info.dataset.version, 3) === 0) return;
    roads.querySelectorAll("[id^='now-'] .ask-B, [id^='now-'] .ask-P").forEach(function (mark) { mark.remove(); });
  });

  // Whether an element that names a state (data-version) fits the page: not older than
  // it, a delta (data-since) from what it shows, odds (data-odds) added to the odds it
  // shows. A delta or odds that do not fit make the page ask for the whole state.
  function admits(pushed, target) {
    var version = pushed.dataset.version, since = pushed.dataset.since, odds = pushed.dataset.odds;
    var info = document.getElementById("game-info"), page = before || (info && info.dataset.version);
    if (since) {
      if (!page || compare(page, version, 3) >= 0) return false; // shown already
      if (compare(page, since, 3) !== 0) { // a push went missing: ask for the whole state
        if (asked !== version) { asked = version; tell(); }
        return false;
      }
    } else if (page && compare(version, page, 3) < 0) {
      return false; // two server processes may push a table's states out of order
    }
    // Nor does an element replace a newer one (a round's odds may come before its push).
    if (target && compare(version, target) < 0) return false;
    if (odds !== undefined) {
      var panel = document.getElementById("odds"), was = beforeOdds || "", shown = +(was.split(":")[3] || 0);
      // A new shoe's odds start from the last odds of the shoe before (its first push).
      var laterShoe = compare(version, was, 1) > 0;
      if (!panel || (!laterShoe && shown >= +(version.split(":")[3] || 0))) return false; // shown already
      if (shown !== +odds) { if (asked !== version) { asked = version; tell(); } return false; }
      panel.dataset.version = version; // the odds the page shows now (a resync says so)
    }
    return true;
  }

  // What a pushed data-change brings a chart's figure (tables/templatetags/cards.py's
  // figure_change): its traces in order, each whole or the one at "=" with its
  // changed keys ("+key": values added at the end), or, when each trace gained one
  // point, those points ("+y") and any other change ("set"); and the layout's changed
  // keys ({"~": keys}: the changed keys of an object).
  function merge(into, keys) {
    Object.keys(keys).forEach(function (key) {
      var value = keys[key];
      if (value && value["~"]) merge(into[key], value["~"]); else into[key] = value;
    });
  }
  function apply(was, trace) {
    Object.keys(trace).forEach(function (key) {
      if (key === "=") return;
      if (key[0] === "+") was[key.slice(1)] = was[key.slice(1)].concat(trace[key]);
      else was[key] = trace[key];
    });
    return was;
  }
  function changed(json, change) {
    var figure = JSON.parse(json);
    if (change["+y"]) {
      // Every line kept its place and gained one point, in order; "set": their other changes.
      figure.data.forEach(function (line, i) { line.y = line.y.concat([change["+y"][i]]); });
      (change.set || []).forEach(function (trace) { apply(figure.data[trace["="]], trace); });
    } else {
      figure.data = change.data.map(function (trace) {
        return "=" in trace ? apply(figure.data[trace["="]], trace) : trace;
      });
    }
    merge(figure.layout, change.layout);
    return JSON.stringify(figure);
  }

  // "a 1 b 2" as [["a", "1"], ["b", "2"]].
  function pairs(text) {
    var words = text.trim().split(/\s+/), found = [];
    for (var i = 0; i + 1 < words.length; i += 2) found.push([words[i], words[i + 1]]);
    return found;
  }

  // Give an odds row the look of a bet on which the player has the edge now, or take it
  // away, as the row rendered whole would have it (tables/_odds_row.html): the look is
  // the panel's #odds-edge, a row with the edge's class and title and a first cell of
  // what follows the bet's name (its tag), in the page's language. Without it (a page
  // from before it was there) the page asks for the whole state.
  function edge(row, now) {
    var look = document.getElementById("odds-edge"), sample = look && look.content.firstElementChild;
    if (!sample) { tell(); return; }
    var cell = row.cells[0], tag = sample.cells[0];
    if ((row.className === sample.className) === now) return; // shown already
    if (now) {
      row.className = sample.className;
      row.title = sample.title;
      tag.childNodes.forEach(function (node) { cell.appendChild(node.cloneNode(true)); });
      cell.normalize(); // the name and the space before the tag one text, as parsed whole
    } else {
      row.removeAttribute("class");
      row.removeAttribute("title");
      cell.textContent = cell.textContent.slice(0, cell.textContent.length - tag.textContent.length);
    }
  }

  // Each element of a push, before htmx swaps it: drop what is older than the page, and
  // a delta that does not start where the page is. An element that names no state goes
  // with the one before it in the push that does.
  document.addEventListener("htmx:oobBeforeSwap", function (e) {
    var d = e.detail;
    // An outerHTML swap hands over a fragment holding the element; the others, the element.
    var outer = d.fragment.nodeType === Node.DOCUMENT_FRAGMENT_NODE;
    var pushed = outer ? d.fragment.firstElementChild : d.fragment;
    if (!pushed || !pushed.dataset) return;
    if (pushed.dataset.version) admitted = admits(pushed, d.target.dataset && d.target.dataset.version);
    if (admitted === false) return e.preventDefault();
    // A delta's game info brings only its facts: the page's version moves with them.
    if (pushed.id === "game-info" && d.target.id !== "game-info") document.getElementById("game-info").dataset.version = pushed.dataset.version;
    // A card of the round being dealt (the last-round panel pushed on its own) moves the
    // page's cards number, and nothing else: the round it completes comes in its own push.
    var info = document.getElementById("game-info");
    if (pushed.id === "last-round" && d.target.id === "last-round" && info && pushed.dataset.version &&
        compare(pushed.dataset.version, info.dataset.version, 3) === 0 && compare(pushed.dataset.version, info.dataset.version) > 0) {
      var parts = info.dataset.version.split(":");
      parts[4] = pushed.dataset.version.split(":")[4];
      info.dataset.version = parts.join(":");
    }
    // Cells' new text, as "id text" pairs in data-cells (tables/_odds_delta.html,
    // tables/_stats_delta.html): numbers, never words, so no text of the template's own.
    // And rows flagged or no longer flagged as the player's edge, as "id flag" pairs in
    // data-edges (tables/_odds_delta.html).
    if ("cells" in pushed.dataset) {
      e.preventDefault();
      pairs(pushed.dataset.cells).forEach(function (pair) {
        var cell = document.getElementById(pair[0]);
        if (cell) cell.textContent = pair[1];
      });
      pairs(pushed.dataset.edges || "").forEach(function (pair) {
        var row = document.getElementById(pair[0]);
        if (row) edge(row, pair[1] === "1");
      });
      return;
    }
    // Table rows come in a <template> (the only way the HTML parser keeps them); htmx
    // inserts an element's children (or, swapping it whole, the element), so hand it the
    // template's content.
    if (pushed.tagName === "TEMPLATE") {
      if (outer) pushed.replaceWith(pushed.content); else pushed.append(pushed.content);
    }
    // New road marks may bring the road's newest columns into view.
    if (pushed.dataset.view && d.target.ownerSVGElement) d.target.ownerSVGElement.setAttribute("viewBox", pushed.dataset.view);
    // A chart's change: into the figure the page keeps (drawn again after the message).
    if ("change" in pushed.dataset) {
      e.preventDefault();
      d.target.textContent = changed(d.target.textContent, JSON.parse(pushed.textContent));
    }
  });
})();
