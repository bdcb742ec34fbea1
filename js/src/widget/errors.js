// What the view could not do reaches the user twice: as a short message in the widget, where
// they look, and in Python (a logged warning and `w.front_end_errors`), where a script can check.
// A failure to draw the data replaces the view with the message; any other (a trait the view
// could not apply, a download) shows above the view until dismissed, so what still works stays.
import { MESSAGES } from "../contract.js";

if (!("error" in MESSAGES)) throw new Error("the contract has no error message");

/** @typedef {"data" | "trait" | "download"} Where */

/** @param {unknown} error */
export const messageOf = (error) => (error instanceof Error ? error.message : String(error));

/**
 * @param {import("./model.js").CCTModel} model
 * @param {HTMLElement} el the widget's element
 * @returns {{ report: (error: unknown, where: Where, fatal?: boolean) => void, clear: () => void }}
 */
export function createErrorReport(model, el) {
  const doc = el.ownerDocument;
  /** @type {HTMLElement | null} */
  let note = null;
  let last = "";
  const clear = () => {
    note?.remove();
    note = null;
    last = "";
  };
  return {
    report(error, where, fatal = false) {
      const message = messageOf(error).split("\n")[0].slice(0, 500);
      if (message !== last) {
        last = message;
        try {
          model.send({ type: "error", message, where });
        } catch {
          // a closed comm: the message still shows
        }
      }
      const box = doc.createElement("div");
      box.className = fatal ? "cct-error" : "cct-error cct-error-note";
      box.setAttribute("role", "alert");
      const text = doc.createElement("span");
      text.textContent = fatal ? `cctviz could not draw this profile: ${message}` : `cctviz: ${message}`;
      box.append(text);
      if (fatal) {
        el.replaceChildren(box);
        return;
      }
      const close = doc.createElement("button");
      close.type = "button";
      close.className = "cct-error-close";
      close.textContent = "×";
      close.title = "Dismiss";
      close.addEventListener("click", clear);
      box.append(close);
      note?.remove();
      note = box;
      el.prepend(box);
    },
    clear,
  };
}

/** What a view without a kernel says, at its top (see connection.js). */
export const DISCONNECTED_NOTE =
  "Disconnected from the kernel: pan, zoom, tooltips and downloads still work; run the cell again to reconnect.";

/**
 * The note of a view whose kernel is gone, above the view (not dismissible: it stays true);
 * the element gets `cct-disconnected`.
 * @param {HTMLElement} el the widget's element
 * @returns {{ show: (live: boolean) => void, flash: () => void }} `flash`: draws the eye to the
 *   note (something the user did needs the kernel)
 */
export function createConnectionNote(el) {
  /** @type {HTMLElement | null} */
  let note = null;
  return {
    show(live) {
      el.classList.toggle("cct-disconnected", !live);
      if (live) {
        note?.remove();
        note = null;
        return;
      }
      if (note) {
        if (!note.isConnected) el.prepend(note); // the view was drawn again after an error
        return;
      }
      note = el.ownerDocument.createElement("div");
      note.className = "cct-connection-note";
      note.setAttribute("role", "status");
      note.textContent = DISCONNECTED_NOTE;
      el.prepend(note);
    },
    flash() {
      if (!note) return;
      note.classList.remove("cct-flash");
      void note.offsetWidth; // restarts the animation
      note.classList.add("cct-flash");
    },
  };
}
