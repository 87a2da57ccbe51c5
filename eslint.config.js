// ESLint (flat config) for the site's plain ES modules and their unit tests; `npm run lint`, run by scripts/test.sh.
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["node_modules/", ".venv*/", "test-results/", "bench/"] },
  js.configs.recommended,
  {
    files: ["frontend/**/*.js", "tests/frontend/js/**/*.js"],
    languageOptions: {
      ecmaVersion: 2024,
      sourceType: "module",
      globals: { ...globals.browser },
    },
    rules: {
      // An unused argument keeps a handler's or renderer's signature readable (render(container, view, ctx)).
      "no-unused-vars": ["error", { args: "none", caughtErrors: "none" }],
      eqeqeq: ["error", "always"],
      "no-var": "error",
      "prefer-const": "error",
    },
  },
  {
    files: ["tests/frontend/js/**/*.js", "scripts/**/*.mjs", "eslint.config.js"],
    languageOptions: { globals: { ...globals.node } },
  },
];
