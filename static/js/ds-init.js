/* Starts the gov.br Design System components Outorga's pages use. The DS's core-init.min.js starts every
   component it knows and stops at the first one whose markup differs from the DS example (our plain tables and
   native selects keep the DS look but not its table toolbar or custom select), leaving what comes after it
   without behaviour and an error in the console of every page. Here each component we use starts on its own,
   and a failure is still reported in the console (the browser tests fail on it). */
(function () {
  "use strict";
  var globals = new window.core.Globals();
  [
    "initInstanceHeader",
    "initInstanceBreadcrumb",
    "initInstanceInput",
    "initInstanceCheckbox",
    "initInstanceCard",
    "initInstanceItem",
    "initInstanceMessage",
    "initInstancePagination",
    "initInstanceTextarea",
    "initInstanceUpload",
    "initInstanceFooter"
  ].forEach(function (name) {
    try {
      globals[name]();
    } catch (error) {
      console.error("gov.br DS: " + name + " falhou", error);
    }
  });
})();
