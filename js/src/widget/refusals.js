// What Python refused of what this page sent (a trait value it does not accept, a picture that
// is not a sane PNG; only a forged or buggy page sends them): Python sends its own value back
// and a `refused` message, which the view shows as it shows its own errors (errors.js). Python
// has logged it already and does not log the view's report of it again.
import { MESSAGES } from "../contract.js";

if (!("refused" in MESSAGES)) throw new Error("the contract has no refused message");

/**
 * @param {import("./model.js").CCTModel} model
 * @param {(error: Error) => void} show
 * @returns {() => void} stops listening
 */
export function watchRefusals(model, show) {
  /** @param {unknown} message */
  const onMessage = (message) => {
    const m = /** @type {{ type?: unknown, message?: unknown } | null} */ (message);
    if (m && typeof m === "object" && m.type === "refused" && typeof m.message === "string") {
      show(new Error(m.message));
    }
  };
  model.on("msg:custom", onMessage);
  return () => model.off("msg:custom", onMessage);
}
