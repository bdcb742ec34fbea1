// The toolbar's SVG and PNG buttons: the figure of the view (as on screen: same size, zoom and
// selection), with provenance, saved by the browser as cctviz.svg or cctviz.png.

/** How long the download's object URL is kept (the browser has started the download by then). */
const REVOKE_AFTER_MS = 10_000;

/**
 * @typedef {import("./renderer-api.js").TableLike} TableLike
 */

/**
 * The provenance written into a downloaded figure: what it shows and how (node ids as in
 * Python).
 * @param {import("../contract.js").ViewState} state
 * @param {Record<string, string>} units
 * @returns {Record<string, unknown>}
 */
export function provenance(state, units) {
  return {
    generator: "cctviz (browser)",
    created: new Date().toISOString(),
    metrics: { color: state.colorBy, size: state.sizeBy },
    units,
    state,
  };
}

/**
 * Base64 → bytes. A plain loop: `Uint8Array.from(text, fn)` walks the text through its iterator,
 * ~30x slower (tens of ms for a picture or a figure's columns).
 * @param {string} base64
 * @returns {Uint8Array<ArrayBuffer>}
 */
export function bytesOf(base64) {
  const text = atob(base64);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/**
 * Saves the figure of the view in `format` through a link click.
 * @template {TableLike} T
 * @param {"svg" | "png"} format
 * @param {import("./renderer-api.js").ViewFigure<T>} figure what the view shows
 * @param {Pick<import("./renderer-api.js").Deps<T>, "figureSVG" | "svgToPng">} deps
 * @param {Document} doc
 * @returns {Promise<void>}
 */
export async function download(format, figure, { figureSVG, svgToPng }, doc) {
  const { table, state, options } = figure;
  const { svg } = figureSVG(table, state, { ...options, provenance: provenance(state, options.units) });
  const blob =
    format === "svg"
      ? new Blob([svg], { type: "image/svg+xml" })
      : new Blob([bytesOf(await svgToPng(svg, options.width, options.height, 2))], { type: "image/png" });
  const link = doc.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = `cctviz.${format}`;
  // in the document while it is clicked: VS Code's notebook webview saves downloads by catching
  // the click on the document, which a detached link never reaches
  link.hidden = true;
  doc.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), REVOKE_AFTER_MS);
}
