// The tooltip's box: one element in the widget's box, shown at the pointer and moved with it,
// placed so that it is never cut off (placeTooltip). What it says is tooltip-content.js's; when
// it shows is hover.js's.
import { append } from "../../base/dom.js";

/**
 * Where the tooltip goes in the widget: right of and below the pointer, on the other side where
 * it would pass the widget's edge, against the edge where neither side has room, and scaled down
 * (from its top left corner) where it is larger than the widget: never cut off.
 * @param {{ x: number, y: number, w: number, h: number, W: number, H: number }} p the pointer,
 *   the tooltip's size and the widget's (0: not known, e.g. before layout)
 * @returns {{ left: number, top: number, scale: number }}
 */
export function placeTooltip({ x, y, w, h, W, H }) {
  const gap = 14;
  const scale = Math.min(1, W > 0 && w > 0 ? W / w : 1, H > 0 && h > 0 ? H / h : 1);
  /** @param {number} at @param {number} size @param {number} room */
  const along = (at, size, room) => {
    if (!(room > 0) || at + gap + size <= room) return Math.max(0, at + gap);
    if (at - gap - size >= 0) return at - gap - size;
    return Math.max(0, room - size);
  };
  return { left: along(x, w * scale, W), top: along(y, h * scale, H), scale };
}

/**
 * The tooltip element, hidden until shown.
 * @param {HTMLElement} root the renderer's element: the tooltip is placed in its box
 */
export function createTooltip(root) {
  const tooltip = append(root, "div", { className: "cct-tooltip", attrs: { role: "tooltip" } });
  tooltip.hidden = true;
  return {
    /** @param {Node} content @param {MouseEvent} event @param {number} width of the drawing */
    show(content, event, width) {
      tooltip.replaceChildren(content);
      tooltip.hidden = false;
      this.move(event, width);
    },
    /** @param {MouseEvent} event @param {number} width */
    move(event, width) {
      const box = root.getBoundingClientRect();
      // measured at the widget's corner, where nothing narrows it (a series, long metric names)
      tooltip.style.left = "0px";
      tooltip.style.top = "0px";
      const place = placeTooltip({
        x: event.clientX - box.left,
        y: event.clientY - box.top,
        w: tooltip.offsetWidth,
        h: tooltip.offsetHeight,
        W: root.clientWidth || width,
        H: root.clientHeight,
      });
      tooltip.style.left = `${place.left}px`;
      tooltip.style.top = `${place.top}px`;
      tooltip.style.transform = place.scale < 1 ? `scale(${place.scale})` : "";
    },
    hide() {
      tooltip.hidden = true;
    },
  };
}
