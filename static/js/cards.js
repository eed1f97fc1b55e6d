// Card authentication (seed 001). Verify: hash a revealed card's plaintext with SHA-512
// in the browser (Web Crypto) and show the Verified Hash Value beside the Public one, with
// no request to the server. Pushed rows: the cards a round revealed arrive in
// #card-updates; each replaces its row in the list if the page shows the list.
(function () {
  function hex(buffer) {
    return Array.prototype.map.call(new Uint8Array(buffer), function (b) {
      return ("0" + b.toString(16)).slice(-2);
    }).join("");
  }

  // The verdicts, in the page's language, are the template's: data-text-match,
  // data-text-mismatch and data-text-no-crypto on the card authentication panel.
  function text(row, name) {
    var panel = row.closest("[data-text-match]");
    return (panel && panel.dataset[name]) || "";
  }

  function show(row, verified, verdict, match) {
    var out = row.querySelector(".verified");
    out.querySelector(".verified-hash").textContent = verified;
    out.querySelector(".verdict-text").textContent = verdict;
    out.className = "verified " + (match === null ? "unavailable" : match ? "match" : "mismatch");
    out.hidden = false;
  }

  document.addEventListener("click", function (e) {
    var button = e.target.closest && e.target.closest("button.verify");
    if (!button) return;
    var row = button.closest(".card-row");
    var plaintext = row.querySelector(".plaintext").textContent;
    var expected = row.querySelector(".public-hash").textContent.trim().toLowerCase();
    if (!window.crypto || !window.crypto.subtle) {
      show(row, "", text(row, "textNoCrypto"), null);
      return;
    }
    window.crypto.subtle.digest("SHA-512", new TextEncoder().encode(plaintext)).then(function (digest) {
      var verified = hex(digest), match = verified === expected;
      show(row, verified, text(row, match ? "textMatch" : "textMismatch"), match);
    });
  });

  // A whole push replaces the panel (a burn, a reveal, a void, a resync): a list the
  // player had open stays open, loaded again, if the panel is still the same shoe's.
  var reopen = false;
  document.addEventListener("htmx:oobBeforeSwap", function (e) {
    var target = e.detail.target;
    if (!target || target.id !== "cards-auth") return;
    var pushed = e.detail.fragment.nodeType === Node.DOCUMENT_FRAGMENT_NODE ? e.detail.fragment.firstElementChild : e.detail.fragment;
    reopen = !!target.querySelector("details.auth-cards[open]") && !!pushed && pushed.dataset.shoe === target.dataset.shoe;
  });
  document.addEventListener("htmx:load", function (e) {
    if (!reopen || !e.target.querySelector) return;
    var details = e.target.id === "cards-auth" ? e.target.querySelector("details.auth-cards") : null;
    if (details) { reopen = false; details.open = true; } // its toggle loads the list
  });

  document.addEventListener("htmx:oobAfterSwap", function (e) {
    var holder = e.detail.target;
    if (!holder || holder.id !== "card-updates") return;
    var list = document.getElementById("card-rows");
    Array.prototype.slice.call(holder.children).forEach(function (row) {
      var shown = list && list.querySelector('.card-row[data-card="' + row.dataset.card + '"]');
      if (shown) shown.replaceWith(row);
      else row.remove(); // the list is not open: it loads the cards as they are when opened
    });
  });
})();
