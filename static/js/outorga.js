/* Small behaviours of Outorga's pages, as a file: the Content-Security-Policy runs no inline script or
   on*= handler. */
(function () {
  "use strict";
  /* <select data-submit-on-change>: choosing an option sends its form (e.g. the edital's purpose filter). */
  document.addEventListener("change", function (event) {
    var field = event.target;
    if (field instanceof HTMLSelectElement && field.hasAttribute("data-submit-on-change") && field.form) {
      field.form.submit();
    }
  });

  /* The main menu on a phone: collapsed under the header's menu button (CSS shows it whole on wider screens). */
  document.addEventListener("click", function (event) {
    var toggle = event.target instanceof Element ? event.target.closest(".outorga-menu-toggle") : null;
    var menu = toggle ? document.getElementById(toggle.getAttribute("aria-controls")) : null;
    if (!menu) {
      return;
    }
    var open = menu.classList.toggle("is-open");
    toggle.setAttribute("aria-expanded", open ? "true" : "false");
  });

  /* <button data-copy-target="id">: copies the text of that element (the PIX "copia e cola" code) and says so in
     the button's status line, read out by screen readers. */
  document.addEventListener("click", function (event) {
    var button = event.target instanceof Element ? event.target.closest("[data-copy-target]") : null;
    var source = button ? document.getElementById(button.getAttribute("data-copy-target")) : null;
    if (!source || !navigator.clipboard) {
      return;
    }
    var status = document.getElementById(button.getAttribute("aria-describedby"));
    navigator.clipboard.writeText(source.textContent.trim()).then(
      function () {
        if (status) { status.textContent = "Código copiado."; }
      },
      function () {
        if (status) { status.textContent = "Não foi possível copiar: selecione o código e copie."; }
      }
    );
  });
})();
