// ESLint's flat config: the recommended rules, browser globals for the pages' scripts, Node's for
// the unit tests of the pure modules (node --test tests/js/).
import js from "@eslint/js";
import globals from "globals";

export default [
  js.configs.recommended,
  {
    files: ["static/js/**/*.js"],
    languageOptions: { ecmaVersion: 2024, sourceType: "module", globals: { ...globals.browser } },
  },
  {
    // classic scripts (no import/export): base.html, the moderation case page and the back office load them
    files: ["static/js/site.js", "static/js/moderation-case.js", "static/js/backoffice-tournament.js"],
    languageOptions: { sourceType: "script" },
  },
  {
    files: ["tests/js/**/*.js", "eslint.config.js"],
    languageOptions: { ecmaVersion: 2024, sourceType: "module", globals: { ...globals.node } },
  },
];
