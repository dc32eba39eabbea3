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

  /* Fields marked data-kinds="vehicle_permit renewal" (the application forms' optional answers the regime's law
     asks, lawcode facts.yaml application_fields) show only while the form's "kind" select names one of those
     kinds; without JavaScript they all stay visible and the server refuses an answer the law does not ask. */
  function showFieldsOfKind(form) {
    var kind = form.elements.namedItem("kind");
    if (!(kind instanceof HTMLSelectElement)) {
      return;
    }
    form.querySelectorAll("[data-kinds]").forEach(function (field) {
      var wrapper = field.closest(".br-input") || field;
      wrapper.hidden = field.getAttribute("data-kinds").split(" ").indexOf(kind.value) === -1;
    });
  }
  document.querySelectorAll("form").forEach(function (form) {
    if (form.querySelector("[data-kinds]")) {
      showFieldsOfKind(form);
    }
  });
  document.addEventListener("change", function (event) {
    var field = event.target;
    if (field instanceof HTMLSelectElement && field.name === "kind" && field.form) {
      showFieldsOfKind(field.form);
    }
  });
})();
