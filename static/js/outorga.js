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
})();
