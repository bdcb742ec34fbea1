// The front-end tests: vitest runs js/test/**/*.test.js in jsdom (`npx vitest run --root js`); the
// test folders mirror js/src (js/test/layers.test.js checks it), helpers are in js/test/support/.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    environment: "jsdom",
    include: ["test/**/*.test.js"],
    // jsdom has no canvas: say so quietly (its default reports "not implemented" on the console)
    setupFiles: ["test/support/setup.js"],
  },
});
