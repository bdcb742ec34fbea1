// The host's theme outside JupyterLab (js/src/widget/theme.js): dark where the page or the system
// says so, nothing where JupyterLab's colours are defined; a live switch is reported.
import { afterEach, describe, expect, test, vi } from "vitest";
import { hostTheme, watchTheme } from "../../src/widget/theme.js";

afterEach(() => {
  document.documentElement.className = "";
  document.body.className = "";
  delete document.body.dataset.theme;
  document.body.style.removeProperty("--jp-layout-color0");
  vi.unstubAllGlobals();
  delete window.matchMedia;
});

/** A system colour setting: `dark`, and the listeners of its change. */
function system(dark) {
  const listeners = new Set();
  const media = {
    get matches() {
      return media.dark;
    },
    dark,
    addEventListener: (_type, fn) => listeners.add(fn),
    removeEventListener: (_type, fn) => listeners.delete(fn),
    flip() {
      media.dark = !media.dark;
      for (const fn of listeners) fn();
    },
  };
  window.matchMedia = () => media;
  return media;
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("the host's theme", () => {
  test("JupyterLab's own colours win; then the page's class or data-theme; then the system", () => {
    const media = system(true);
    expect(hostTheme(document)).toBe("dark");
    document.body.classList.add("light"); // marimo in light mode on a dark system
    expect(hostTheme(document)).toBe("light");
    document.body.classList.remove("light");
    document.body.dataset.theme = "dark";
    expect(hostTheme(document)).toBe("dark");
    document.body.style.setProperty("--jp-layout-color0", "#ffffff");
    expect(hostTheme(document)).toBe("jupyter");
    media.dark = false;
    document.body.style.removeProperty("--jp-layout-color0");
    delete document.body.dataset.theme;
    expect(hostTheme(document)).toBe("light");
  });

  test("JupyterLab's colours defined light over a dark background (Colab's dark mode): dark", () => {
    system(false);
    document.body.style.setProperty("--jp-layout-color0", "#ffffff");
    const el = document.body.appendChild(document.createElement("div"));
    expect(hostTheme(document, el)).toBe("jupyter"); // nothing behind it: JupyterLab's colours
    document.body.style.backgroundColor = "rgb(30, 30, 30)";
    expect(hostTheme(document, el)).toBe("dark");
    document.body.style.backgroundColor = "rgb(255, 255, 255)";
    expect(hostTheme(document, el)).toBe("jupyter");
    // JupyterLab's own dark theme: its dark colours are the view's (nothing of ours over them)
    document.body.style.setProperty("--jp-layout-color0", "#111111");
    document.body.style.backgroundColor = "rgb(17, 17, 17)";
    expect(hostTheme(document, el)).toBe("jupyter");
    document.body.style.removeProperty("background-color");
    el.remove();
  });

  test("the view is marked dark, and a live switch repaints it", async () => {
    const media = system(false);
    const el = document.body.appendChild(document.createElement("div"));
    const changed = vi.fn();
    const stop = watchTheme(el, changed);
    expect(el.dataset.cctTheme).toBeUndefined();
    document.documentElement.classList.add("dark"); // marimo's dark mode
    await flush();
    expect(el.dataset.cctTheme).toBe("dark");
    expect(changed).toHaveBeenCalledTimes(1);
    document.documentElement.classList.remove("dark");
    media.flip(); // the system goes dark
    await flush();
    expect(el.dataset.cctTheme).toBe("dark");
    stop();
    media.flip();
    await flush();
    expect(el.dataset.cctTheme).toBe("dark"); // no longer watched
  });
});
