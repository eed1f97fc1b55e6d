// Good-road alerts (templates/_alerts.html): while they are on (or quiet) the page opens
// the alerts socket, which carries only alerts, one small push when a good road forms on
// some table (tables/live's alerts group); nothing is opened while they are off. Each
// alert is shown once (its key: table, shoe, round, pattern), only for the good roads the
// lobby's settings leave on, never for the table this page shows. On: a toast that stays
// until dismissed or TOAST_SECONDS pass (longer while pointed at); quiet: counted on the bell.
(function () {
  var menu = document.getElementById("alerts-menu"), toasts = document.getElementById("toasts");
  if (!menu || !toasts) return;
  var MODE = "goodRoadAlerts", OFF = "goodRoadsOff"; // OFF: the lobby's settings (static/js/lobby.js)
  var TOAST_SECONDS = 8, SEEN_MOST = 200;
  var socket = null, retry = null, backoff = 1, seen = [], count = 0, heard = false;
  var status = document.getElementById("alerts-status"), counter = menu.querySelector(".alerts-count");

  function stored(key, fallback) {
    try { return localStorage.getItem(key) || fallback; } catch (e) { return fallback; }
  }
  var current = stored(MODE, "off");
  function mode() { return current; }
  function patternsOff() {
    try { var off = JSON.parse(stored(OFF, "[]")); return Array.isArray(off) ? off : []; } catch (e) { return []; }
  }
  function allOff() {
    var boxes = document.querySelectorAll("#road-settings input[data-pattern]");
    if (boxes.length) return Array.prototype.every.call(boxes, function (box) { return !box.checked; });
    var off = patternsOff();
    return menu.dataset.patterns.split(" ").every(function (key) { return off.indexOf(key) >= 0; });
  }

  function say() {
    var on = mode() !== "off";
    menu.classList.toggle("alerts-on", on);
    status.textContent = !on ? "" : allOff() ? menu.dataset.textChoose : heard ? "" : menu.dataset.textWaiting;
    counter.hidden = !count;
    counter.textContent = count;
  }

  // At most this many toasts at once, the newest kept: more would cover a phone's page.
  var phone = window.matchMedia("(max-width: 640px)"), MOST = { phone: 1, other: 3 };
  function show(toast) {
    toasts.appendChild(toast);
    while (toasts.children.length > (phone.matches ? MOST.phone : MOST.other)) toasts.firstElementChild.remove();
    var timer = null;
    function later() { timer = setTimeout(function () { toast.remove(); }, TOAST_SECONDS * 1000); }
    toast.addEventListener("mouseenter", function () { clearTimeout(timer); });
    toast.addEventListener("focusin", function () { clearTimeout(timer); });
    toast.addEventListener("mouseleave", later);
    later();
  }

  function received(html) {
    var off = patternsOff(), template = document.createElement("template");
    template.innerHTML = html; // the server's own template (tables/_good_road_alert.html)
    template.content.querySelectorAll(".toast").forEach(function (toast) {
      var key = toast.dataset.key;
      if (toast.dataset.table === menu.dataset.watching || off.indexOf(toast.dataset.pattern) >= 0) return;
      if (seen.indexOf(key) >= 0) return;
      seen.push(key);
      heard = true;
      if (seen.length > SEEN_MOST) seen.shift();
      if (mode() === "quiet") count += 1;
      else show(toast);
      toasts.dataset.alerted = seen.join(" "); // what the page has alerted, for whoever looks (and the tests)
    });
    say();
  }

  function connect() {
    if (socket || mode() === "off" || !window.WebSocket) return;
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + location.host + "/ws/alerts/?lang=" + encodeURIComponent(menu.dataset.lang || "en"));
    socket.onopen = function () { backoff = 1; menu.dataset.connected = "1"; };
    socket.onmessage = function (e) { if (typeof e.data === "string") received(e.data); };
    socket.onclose = function () {
      socket = null;
      delete menu.dataset.connected;
      if (mode() === "off") return;
      retry = setTimeout(connect, backoff * 1000); // growing back-off, as htmx's sockets
      backoff = Math.min(backoff * 2, 30);
    };
  }
  function disconnect() {
    clearTimeout(retry);
    if (socket) { var closing = socket; socket = null; closing.onclose = null; closing.close(); }
    delete menu.dataset.connected;
  }

  var bell = menu.querySelector(".alerts-bell"), panel = document.getElementById("alerts-panel");
  var modes = menu.querySelectorAll("[data-mode]");
  function pressed() {
    modes.forEach(function (button) { button.setAttribute("aria-pressed", button.dataset.mode === current ? "true" : "false"); });
  }
  function open(shown) {
    panel.hidden = !shown;
    bell.setAttribute("aria-expanded", shown ? "true" : "false");
  }
  modes.forEach(function (button) {
    button.addEventListener("click", function () {
      current = button.dataset.mode;
      try { localStorage.setItem(MODE, current); } catch (e) { /* this page only */ }
      if (current === "off") disconnect(); else connect();
      if (current !== "quiet") count = 0;
      pressed();
      say();
    });
  });
  bell.addEventListener("click", function () { open(panel.hidden); });
  document.addEventListener("click", function (e) { if (!menu.contains(e.target)) open(false); });
  document.addEventListener("keydown", function (e) { if (e.key === "Escape" && !panel.hidden) { open(false); bell.focus(); } });
  pressed();
  toasts.addEventListener("click", function (e) {
    var close = e.target.closest && e.target.closest("[data-dismiss]");
    if (close) close.closest(".toast").remove();
  });
  document.addEventListener("change", function (e) { if (e.target.closest && e.target.closest("#road-settings")) say(); });
  say();
  connect();
})();
