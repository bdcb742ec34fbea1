// The painter's labels (painter.js): placed for the nodes in view (view-labels.js), at once in a
// small view and after the frame that shows the nodes in a big one, in slices of ~D.sliceMs a
// task; a move meanwhile begins them again, and a new structure's wait for its camera. The
// pinned spread is placed among them. The painter owns the backend they are drawn on.
import { formatWith } from "../../base/format.js";
import { runAll } from "../../base/steps.js";
import { metricByName } from "../../data/decode.js";
import { NO_KEY } from "../../data/ids.js";
import { bandHeaders } from "../../picture/bands.js";
import { placeSelection } from "../../picture/hidden-selection.js";
import { fitMarksToRows } from "../../picture/mark-room.js";
import { viewLabelSteps } from "../../picture/view-labels.js";
import { LEGEND_BAND } from "../legend/view-legends.js";
import { placePin } from "./pin-place.js";
import { textMeasure } from "./text-measure.js";

/** @typedef {import("../../picture/picture.js").Picture} Picture */
/** @typedef {import("../../data/ids.js").NodeId} NodeId */
/** @typedef {ReturnType<typeof import("../svg/svg-backend.js").createSvgBackend> | ReturnType<typeof import("../canvas/canvas-backend.js").createCanvasBackend>} Backend */

/**
 * @param {import("../view.js").View} view the view whose picture is labelled, on its screen
 * @param {{ backend: () => Backend | null, matched: () => NodeId[], units?: () => Record<string, string> }} parts
 *   `backend`: the painter's, now; `matched`: the search's matches (labelled first, with the selection);
 *   `units`: metric name → unit (a compare view's labelled differences are written in it)
 */
export function createPainterLabels(view, { backend, matched, units = () => ({}) }) {
  const { doc, D, camera, chrome, store } = view;
  const state = () => store.view;
  /** The marks of the picture's items, in tree order. @param {Picture} pic */
  const markList = ({ scene }) => scene.list;
  /** The height of the change rings' key under the legends (labels keep out of it). */
  const keys = () => (view.shown?.table.changes?.cause.some((c) => c > 0) ? 50 : 0);
  /** Where the legends drawn end (drawLegends' `data-bottom`; 0: none drawn yet). */
  const legendsBottom = () => Number(backend()?.legendLayer.attr("data-bottom")) || 0;
  /** a move of the camera is under way (between its start and end) */
  let gliding = false;
  /** a rebuild draws: labels wait for its camera; whether they were asked for since */
  let holdLabels = false;
  let labelsAsked = false;

  /** The font family the labels inherit on the page. */
  function labelFont() {
    const svg = backend()?.svg;
    const family = svg && doc.defaultView ? doc.defaultView.getComputedStyle(svg).fontFamily : "";
    return family || "sans-serif";
  }
  /** Text widths in the labels' font (measured once per painter). */
  let measure = /** @type {((text: string) => number) | null} */ (null);

  /** @type {number} the frame after which the labels are placed (big views), 0: none */
  let labelFrame = 0;
  /** @type {number} the task that places them, 0: none */
  let labelTask = 0;
  /** @type {Generator<void, void, void> | null} labels being placed in slices (labelSteps) */
  let labelRun = null;
  /** the next labels come later: a big table was just laid out (see `held`) */
  let labelsAfterRebuild = false;
  /** items in the picture before the latest rebuild */
  let itemsDrawn = 0;
  /** Labels for the nodes in view (see view-labels.js). In a view of more than
   * `D.labelsLaterAbove` nodes, just after a table of more than `D.drawLaterAbove` rows was
   * laid out again, or in a view's first picture of more than `D.firstLabelsLaterAbove` rows
   * (see `held`), they are placed
   * in a task of their own after the next frame: that frame shows the nodes without waiting for
   * their labels (10^4 nodes in view: ~40 ms, 10^5: ~150 ms; each a task near what a long task
   * is, were it added to the frame's painting), and moves in between place them once. Labels
   * that a new structure made stale are taken away at once (`clearIfLater`). */
  const labelsLater = () => {
    const pic = view.shown;
    return !!pic && (pic.tree.items.length > D.labelsLaterAbove || labelsAfterRebuild);
  };
  function updateLabels() {
    if (holdLabels) return;
    labelsAsked = true;
    if (!labelsLater()) return placeLabels();
    const win = doc.defaultView;
    if (labelRun) cancelLabels(); // begun with what was in view then: begun again
    if (labelFrame || labelTask || !win) return;
    const raf = win.requestAnimationFrame?.bind(win) ?? ((/** @type {() => void} */ f) => win.setTimeout(f, 16));
    // in slices of ~D.sliceMs a task (10^5 nodes in view: a few hundred ms in all)
    const slice = () => {
      labelTask = 0;
      // a glide under way (a collapse refitting): its end places them, once, where it ends
      if (gliding) {
        labelRun = null;
        return;
      }
      labelsAfterRebuild = false;
      const run = labelRun ?? labelSteps();
      labelRun = run;
      const end = performance.now() + D.sliceMs;
      let step = run.next();
      while (!step.done && labelRun === run && performance.now() < end) step = run.next();
      if (labelRun !== run) return; // placed or dropped meanwhile
      if (step.done) labelRun = null;
      else labelTask = win.setTimeout(slice, 0);
    };
    pending(true);
    labelFrame = raf(() => {
      labelFrame = 0;
      labelTask = win.setTimeout(slice, 0);
    });
  }
  /** Drops labels waiting to be placed. */
  function cancelLabels() {
    const win = doc.defaultView;
    if (labelFrame) (win?.cancelAnimationFrame ?? clearTimeout)(labelFrame);
    if (labelTask) win?.clearTimeout(labelTask);
    labelFrame = labelTask = 0;
    labelRun = null;
  }
  function placeLabels() {
    cancelLabels(); // placed now: whatever was waiting is done
    labelsAfterRebuild = false;
    runAll(labelSteps());
  }
  /** Places the labels for the nodes in view, in slices (a yield between two). */
  function* labelSteps() {
    const pic = view.drawable();
    const b = backend();
    if (!pic || !b) return pending(false);
    const { table, stats, tree, layout, scene } = pic;
    // a figure's marks no larger than their rows (its zoom is known now)
    if (D.fitMarksToRows && fitMarksToRows(markList(pic), camera.transform.k, D.rMin)) {
      for (const m of markList(pic)) layout.x[m.key] = m.x; // a staggered mark: its label follows
      b.moveNodes(markList(pic));
    }
    // in the font the labels are drawn in: the figure's, or the page's (JupyterLab's UI font)
    measure ??= textMeasure(doc, D.labelPx, D.fontFamily || labelFont());
    // the legends' corner: a column on the left, or a row on top
    const { width } = camera.size;
    legends = view.legendsOnTop
      ? { x0: 0, y0: 0, x1: width, y1: LEGEND_BAND * D.legendScale }
      : {
          x0: 0,
          y0: 0,
          x1: D.legendRoom - 6,
          // as drawn (titles and run keys wrapped on several lines), or as they usually are
          y1: Math.max(66 + 46 * Math.min(6, scene.legends.length) + keys(), legendsBottom()) * D.legendScale,
        };
    const keepOut = [legends];
    const { marks } = scene;
    const size = camera.size;
    const bands = bandHeaders({ layout, table, stats, tree, marks, transform: camera.transform, size, sizes: D });
    const { sizeBy, focus, colorBy } = state();
    const share = { metric: sizeBy, focus: focus === null ? -1 : table.rowOf(focus) };
    // selected and searched nodes are labelled first
    const first = placeSelection(table, tree, [...store.selection, ...matched()]).drawn;
    labels = yield* viewLabelSteps({
      table,
      stats,
      tree,
      marks,
      screenOf: (key) => view.screenOf(key),
      size,
      sizes: D,
      measure,
      keepOut,
      bands,
      share,
      first,
      colorBy,
      valueText: differenceText(table, colorBy, units()[colorBy] ?? null),
    });
    b.drawLabels(labels);
    pending(false);
    placePinned();
  }
  /** Marks the drawing while its labels wait to be placed (`data-labels="later"`): what reads
   * the labels (a test, a benchmark) waits for them. @param {boolean} later */
  function pending(later) {
    const svg = backend()?.svg;
    if (later) svg?.setAttribute("data-labels", "later");
    else svg?.removeAttribute("data-labels");
  }
  /** what the labels were placed among: the labels drawn and the legends' box */
  /** @type {import("../../picture/label-layout.js").LabelMark[]} */ let labels = [];
  let legends = { x0: 0, y0: 0, x1: 0, y1: 0 };
  /** The pinned spread, shown, in the corner where it covers the least of the tree (pin-place.js). */
  function placePinned() {
    const pic = view.drawable();
    if (!pic || chrome.pinned.hidden || !measure) return;
    const last = store.selection.at(-1);
    const selected = last === undefined ? NO_KEY : view.keyOf(last);
    const onTop = view.legendsOnTop;
    placePin(chrome.pinned, {
      camera,
      marks: markList(pic),
      labels,
      measure,
      labelPx: D.labelPx,
      legends,
      onTop,
      selected,
    });
  }

  return {
    update: updateLabels,
    cancel: cancelLabels,
    placePinned,
    /** The labels placed last (empty: none, or waiting). */
    get placed() {
      return labels;
    },
    /** A camera move is under way (its end places the labels). @param {boolean} moving */
    set gliding(moving) {
      gliding = moving;
    },
    /**
     * A new structure drawn by `draw`: its labels wait for the camera. A new structure of a big
     * table (its task already walked the whole table: view tree, statistics, folds) or one
     * replacing a big picture (a collapse of thousands of nodes at 10k drawn: ~20 ms of labels
     * on ~45 ms) has its labels placed later too, as has a view's first picture of more than
     * `D.firstLabelsLaterAbove` rows.
     * @param {number} rows the table's @param {number} items the picture's @param {() => void} draw
     */
    held(rows, items, draw) {
      // a view's first picture: its task decoded and folded the table and drew the marks (1k
      // rows: ~60 ms with the labels, ~40 without); the labels come in the task after its frame
      const first = itemsDrawn === 0 && rows > D.firstLabelsLaterAbove;
      labelsAfterRebuild = rows > D.drawLaterAbove || itemsDrawn > D.labelsLaterAbove || first;
      itemsDrawn = items;
      holdLabels = true;
      try {
        draw();
      } finally {
        holdLabels = false;
      }
      labelsAsked = false;
    },
    /** Labels to be placed later: the old ones taken away (they would name the wrong places). */
    clearIfLater() {
      if (labelsLater()) backend()?.drawLabels([]);
    },
    /** Labels placed unless something asked for them since `held` (the camera's move did). */
    updateUnlessAsked() {
      if (!labelsAsked) updateLabels();
    },
  };
}

/**
 * A compare view's labelled nodes (selected, the largest differences) end with their value of the
 * colour metric, signed, in its unit: "MPI_Allreduce +8.56 s" says what the colour found.
 * Other views: none (their labels end with a share).
 * @param {import("../../data/decode.js").Table} table @param {string} colorBy
 * @param {string | null} unit
 * @returns {((item: import("../../picture/view-tree.js").ViewItem) => string) | undefined}
 */
export function differenceText(table, colorBy, unit) {
  const metric = table.series?.length ? metricByName(table, colorBy) : null;
  if (!metric) return undefined;
  const format = formatWith(unit);
  return (item) => {
    const v = item.kind === "node" ? metric.values[item.id] : Number.NaN;
    if (!Number.isFinite(v)) return "";
    return ` ${v > 0 ? "+" : ""}${format(v)}`;
  };
}
