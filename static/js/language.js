// The language switch (templates/_language.html): picking a language sends the form
// (Django's set_language keeps the choice in its cookie and brings the page back in it),
// so the button that does it without scripts can go.
(function () {
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-language-switch]").forEach(function (select) {
      var form = select.form;
      form.querySelector(".language-go").hidden = true;
      select.addEventListener("change", function () { form.submit(); });
    });
  });
})();
