// The chrome around the drawing: the header (breadcrumb of the focus path, status line), the
// stage the tree is drawn in, the tooltip, the screen-reader announcer, and the legends drawn on
// the backend's legend layer. It shows what it is given; it holds no view state.
import { append } from "./dom.js";
import { shortenName } from "./labels.js";
import { drawColorLegend, drawSizeLegend } from "./legend.js";
import { shapePath } from "./shapes.js";

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

/** Height of the row of legends when they are on top (at legend scale 1). */
export const LEGEND_BAND = 58;

/**
 * @param {HTMLElement} root the renderer's element (the toolbar, if any, is already in it)
 */
export function createChrome(root) {
  const header = append(root, "div", { className: "cct-header" });
  const breadcrumb = append(header, "nav", { className: "cct-breadcrumb", attrs: { "aria-label": "Focus path" } });
  const status = append(header, "span", { className: "cct-status" });
  const fitNote = append(header, "span", { className: "cct-fit-note" });
  fitNote.hidden = true;
  const stage = append(root, "div", {
    className: "cct-stage",
    attrs: { tabindex: "0", role: "tree", "aria-label": "Calling context tree; arrow keys move, Enter collapses" },
  });
  const surface = append(stage, "div", { className: "cct-surface" });
  // in the whole widget's box, not the stage's: a tall tooltip (a series) may cover the toolbar
  const tooltip = append(root, "div", { className: "cct-tooltip", attrs: { role: "tooltip" } });
  tooltip.hidden = true;
  const announcer = append(stage, "div", { className: "cct-sr-only", attrs: { "aria-live": "polite" } });
  // the selected node's spread over its ranks, pinned in a corner of the stage
  const pinned = append(stage, "div", { className: "cct-pinned", attrs: { "aria-live": "polite" } });
  pinned.hidden = true;

  /** Where a pointer event is, relative to the stage. @param {MouseEvent} event */
  const onStage = (event) => {
    const box = stage.getBoundingClientRect();
    return { x: event.clientX - box.left, y: event.clientY - box.top };
  };

  return {
    stage,
    /** the element the backends draw into */
    surface,
    onStage,

    /** @param {{ text: string, title: string }} line */
    setStatus({ text, title }) {
      status.textContent = text;
      // the whole line first: a narrow cell cuts it at its end ("kinds: …" comes last)
      status.title = [text.split(" · ").join("\n"), title].filter(Boolean).join("\n\n");
    },

    /**
     * Says how many small subtrees were folded to fit, with a button that expands everything.
     * @param {number} count 0 hides the note
     * @param {() => void} expandAll
     */
    setFitNote(count, expandAll) {
      fitNote.replaceChildren();
      fitNote.hidden = count === 0;
      if (!count) return;
      append(fitNote, "span", {
        text: `${count.toLocaleString("en-US")} small subtree${count === 1 ? "" : "s"} folded to fit · `,
      });
      const b = append(fitNote, "button", { className: "cct-crumb", text: "Expand all", attrs: { type: "button" } });
      b.addEventListener("click", expandAll);
    },

    /**
     * The focus path as buttons ("All" first); `pick(id)` focuses there (null: everything).
     * @param {{ id: number, name: string }[] | null} path null: nothing is focused
     * @param {(id: number | null) => void} pick
     */
    setBreadcrumb(path, pick) {
      breadcrumb.replaceChildren();
      if (!path) return;
      /** @param {string} text @param {number | null} id */
      const crumb = (text, id) => {
        const b = append(breadcrumb, "button", { className: "cct-crumb", text, attrs: { type: "button" } });
        b.addEventListener("click", () => pick(id));
      };
      crumb("All", null);
      for (const { id, name } of path) {
        append(breadcrumb, "span", { text: "›", attrs: { "aria-hidden": "true" } });
        crumb(shortenName(name, 24), id);
      }
    },

    /** @param {string} text read out by screen readers */
    announce(text) {
      announcer.textContent = text;
    },

    /** @param {Node} content @param {MouseEvent} event @param {number} width of the drawing */
    showTooltip(content, event, width) {
      tooltip.replaceChildren(content);
      tooltip.hidden = false;
      this.moveTooltip(event, width);
    },
    /** @param {MouseEvent} event @param {number} width */
    moveTooltip(event, width) {
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
    /**
     * Pins `content` (a selected node's spread) under its `name`; null unpins.
     * @param {string | null} name @param {HTMLElement | null} content
     */
    setPinned(name, content) {
      pinned.replaceChildren();
      pinned.hidden = !content;
      if (!content || name === null) return;
      append(pinned, "div", { className: "cct-tooltip-name", text: name });
      pinned.append(content);
    },

    hideTooltip() {
      tooltip.hidden = true;
    },
  };
}

/**
 * The colour legends (one, or one per tree) and the size legend: a column on the left, or a
 * row on top (narrow figures: shorter colour bars).
 * @param {import("d3-selection").Selection<SVGGElement, unknown, null, undefined>} layer
 * @param {{ legends: import("./scene.js").LegendEntry[], size: ReturnType<typeof import("./scales.js").sizeScale>,
 *   colorTitle: string, sizeTitle: string, onTop: boolean, scale: number, format?: (v: number) => string,
 *   presence?: [string, string] | null, small?: string | null }} spec
 *   `format`: how the colour legends' ends are written (a share of a total); `presence`: what a
 *   compare view's square and hexagon mean ("only in before", "only in after"); `small`: what the
 *   grey nodes are (judge.js), or null when there are none
 */
export function drawLegends(
  layer,
  { legends, size, colorTitle, sizeTitle, onTop, scale, format, presence = null, small = null },
) {
  layer.selectAll("*").remove();
  layer.attr("transform", scale === 1 ? null : `scale(${scale})`);
  let x = 12;
  let y = 16;
  const next = (/** @type {number} */ dy) => {
    if (onTop) x += 150;
    else y += dy;
  };
  for (const { tree, scale: colors } of legends.slice(0, onTop ? 2 : 6)) {
    const g = layer.append("g").attr("transform", `translate(${x}, ${y})`);
    const prefix = tree === null ? "" : `${shortenName(tree, 14)}: `;
    drawColorLegend(g, colors, {
      title: `${prefix}colour: ${colorTitle}`,
      width: onTop ? 120 : 160,
      titleWidth: onTop ? 140 : 176,
      format,
    });
    next(46);
  }
  const s = layer.append("g").attr("transform", `translate(${x}, ${y})`);
  drawSizeLegend(s, size, { title: `size: ${sizeTitle}`, titleWidth: onTop ? 140 : 176 });
  if (presence) {
    next(50);
    const key = layer.append("g").attr("class", "cct-presence-key").attr("transform", `translate(${x}, ${y})`);
    presence.forEach((run, i) => {
      const cy = 6 + 16 * i;
      key
        .append("path")
        .attr("class", "cct-key-glyph")
        .attr("fill", "none")
        .attr("d", shapePath(i ? "hexagon" : "square", 6, cy, 5));
      key
        .append("text")
        .attr("x", 16)
        .attr("y", cy + 4)
        .text(shortenName(run, 40));
    });
  }
  if (small) {
    next(presence ? 34 : 50);
    const g = layer.append("g").attr("class", "cct-small-key").attr("transform", `translate(${x}, ${y})`);
    g.append("circle")
      .attr("class", "cct-key-glyph")
      .attr("cx", 6)
      .attr("cy", 6)
      .attr("r", 5)
      .attr("fill", SMALL_FILL)
      .attr("stroke", "#444");
    // short, to stay inside the legends' column (the whole rule in its hover text)
    const label = g.append("text").attr("x", 16).attr("y", 10).text("too small to judge");
    label.append("title").text(`${small}: grey, not on the colour scale`);
  }
}

/** The fill of nodes too small to judge (scene.js draws them so). */
export const SMALL_FILL = "#d4d4d4";

/** @type {Record<string, string>} */
const MAX_KIND_TITLE = { ratio: "ratio; glyphs: max", max: "glyphs: max" };

/**
 * A legend title: the metric, its kind and unit.
 * @param {import("./decode.js").Metric} m @param {Record<string, string>} units
 */
export function metricTitle(m, units) {
  const unit = Object.hasOwn(units, m.name) ? ` [${units[m.name]}]` : "";
  // "time (exclusive)", but not "time (inc) (inclusive)": the kind only where the name does not say it
  const says = m.kind === "other" || m.name.includes(m.kind) || m.name.includes(`(${m.kind.slice(0, 3)}`);
  // a ratio or a maximum: its glyphs show the largest value they hide, which the title says
  const kind = MAX_KIND_TITLE[m.kind] ?? m.kind;
  return `${m.name}${says ? "" : ` (${kind})`}${unit}`;
}
