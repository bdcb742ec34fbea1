// The seam between the widget glue and the Jupyter-agnostic renderer (js/src/cct): what the glue
// uses of it. js/src/index.js hands in the real modules (`createWidget(deps)`); tests hand in
// fakes. Node ids are full-tree ids on both sides: the glue never sees rows.
//
// The glue imports no code from js/src/cct: this file says what it expects instead, and the type
// check of js/src/index.js, which hands the real modules in (js/jsconfig.json, strict over all of
// js/src), tells whether they fit.

/**
 * @typedef {import("../contract.js").ViewState} ViewState
 * @typedef {import("./model.js").Transform} Transform
 * @typedef {import("./model.js").Payload} Payload
 * @typedef {{ size: number }} TableLike what the glue reads of a decoded table: its row count
 */

/**
 * Callbacks and sizes given to `createRenderer`.
 * @typedef {object} RendererOptions
 * @property {(ids: import("../cct/data/ids.js").NodeId[]) => void} onSelect the user changed the selection (selection order)
 * @property {(partial: Partial<ViewState>) => void} onChange the user changed view state: only
 *   the changed keys
 * @property {(node: import("../cct/data/ids.js").NodeId) => void} onLoadMore the user opened a level-of-detail fold: the node
 *   whose hidden children should load (-1: hidden roots)
 * @property {((format: "svg" | "png") => void) | null} onDownload toolbar download buttons
 * @property {(reducer: string) => void} onReducer the user chose a reducer in the toolbar
 * @property {(node: import("../cct/data/ids.js").NodeId, metric: string) => Promise<import("../cct/draw/tooltip/tooltip-content.js").Spread>} onSpread
 *   asks Python for a node's per-row spread (its tooltip)
 * @property {(node: import("../cct/data/ids.js").NodeId, step: 1 | -1 | 0) => Promise<import("../cct/data/ids.js").NodeId | null>} onFind
 *   under level of detail: Python loads the search match after (`step` 1) or before (-1) a node, or (0) the matches
 * @property {(t: Transform | null) => void} onZoom a zoom or pan ended: what the user set, or
 *   null when the view is fitted
 * @property {number} width
 * @property {number} height
 */

/**
 * What the glue uses of a renderer.
 * @template {TableLike} T
 * @typedef {object} Renderer
 * @property {(table: T, state?: Partial<ViewState>, how?: { anchor?: import("../cct/data/ids.js").NodeId | null }) => void} setData
 *   `anchor`: a node kept where it was on screen, at the same zoom
 * @property {(partial: Partial<ViewState>) => void} setState no `onChange` echo; a bad value
 *   is a RangeError
 * @property {ViewState} state the whole view state
 * @property {(ids: import("../cct/data/ids.js").NodeId[]) => void} setSelection
 * @property {import("../cct/data/ids.js").NodeId[]} selection
 * @property {(t: Transform) => void} setTransform
 * @property {Transform} transform
 * @property {(width: number, height: number) => void} resize
 * @property {(units: Record<string, string>) => void} setUnits
 * @property {(name: string, value?: unknown) => void} [command] runs a command as the user would
 *   (js/src/cct/state/commands.js `commandOf`: "select" with node ids selects as a click)
 * @property {HTMLElement} stage the element the tree is drawn in: its size is the drawing's
 * @property {HTMLElement} element the renderer's outermost element
 * @property {() => void} destroy
 * @property {(scale: number) => Promise<string> | null} [picture] the view as drawn, a PNG
 *   (base64) at `scale` device pixels per CSS pixel, where the renderer can make one from its
 *   own drawing (cheaper than a figure); null where it cannot
 * @property {(counted: import("../cct/state/search-commands.js").Counted | null) => void} [setSearchCount]
 *   Python's count of a search's matches over the full tree (level of detail); null: none
 * @property {() => void} [refreshTheme] paints again in the page's current colours (a theme
 *   switch: the canvas backend reads them when it paints)
 */

/**
 * What the figures (static image, downloads) are drawn with.
 * @typedef {object} FigureOptions
 * @property {number} width
 * @property {number} height
 * @property {import("../cct/data/ids.js").NodeId[]} selection
 * @property {Record<string, string>} units
 * @property {Transform | null} transform the zoom the user set; null fits the whole tree
 * @property {Record<string, unknown>} [provenance]
 * @property {unknown} [trend] an ensemble view's trend pane (`_trend`), drawn below the tree
 * @property {boolean} [trendLog]
 */

/**
 * A figure of what the view shows now: the table, the view state and how it is drawn.
 * @template {TableLike} T
 * @typedef {{ table: T, state: ViewState, options: FigureOptions }} ViewFigure
 */

/**
 * The renderer's modules, handed to `createWidget`.
 * @template {TableLike} T the decoded table
 * @typedef {object} Deps
 * @property {(container: HTMLElement, options: RendererOptions) => Renderer<T>} createRenderer
 * @property {(payload: Payload) => T} decodeTable throws on a payload it cannot read
 * @property {(table: T, state: Partial<ViewState>, options: FigureOptions) => { svg: string }} figureSVG
 * @property {(table: T, state: Partial<ViewState>, options: FigureOptions) => Generator<void, { svg: string }, void>} figureSteps
 *   figureSVG in steps, with a pause between them (the view's static picture draws one per idle moment)
 * @property {(svg: string, width: number, height: number, scale: number) => Promise<string>} svgToPng
 *   base64 PNG
 * @property {(parent: HTMLElement, handlers: PaneHandlers) => TablePane} [createTablePane] the
 *   table pane (js/src/cct/pane/table-pane.js); without it the view has none
 * @property {(parent: HTMLElement, handlers: StripHandlers) => ProfileStrip} [createProfileStrip]
 *   an ensemble's profile strip (js/src/cct/strip/profile-strip.js); without it the view has none
 * @property {(parent: HTMLElement, handlers: TrendHandlers) => TrendPane} [createTrendPane]
 *   an ensemble's trend pane (js/src/cct/trend/trend-pane.js); without it the view has none
 */

/**
 * What the trend pane reports: a node to select (a child's chart, the breadcrumb), the axis and
 * log axes chosen.
 * @typedef {object} TrendHandlers
 * @property {(id: number) => void} onSelect
 * @property {(by: string) => void} onAxis
 * @property {(log: boolean) => void} onLog
 */
/**
 * What the glue uses of the trend pane.
 * @typedef {object} TrendPane
 * @property {HTMLElement} element
 * @property {(trend: unknown) => void} setData Python's `_trend` ({}: none, the pane hides)
 * @property {(log: boolean) => void} setLog
 * @property {() => void} destroy
 */

/**
 * What the profile strip reports: the axes chosen, the ranges brushed (axis units; both null:
 * the brush was cleared).
 * @typedef {object} StripHandlers
 * @property {(x: string, y: string) => void} onAxes
 * @property {(ranges: { x: [number, number] | null, y: [number, number] | null }) => void} onBrush
 */
/**
 * What the glue uses of the profile strip.
 * @typedef {object} ProfileStrip
 * @property {HTMLElement} element
 * @property {(strip: unknown) => void} setData Python's `_strip` ({}: none, the strip hides)
 * @property {(text: string) => void} setError
 * @property {() => void} destroy
 */

/**
 * @typedef {"off" | "contexts" | "functions" | "callers" | "sandwich" | "changes" | "source" | "ranks"} PaneMode
 * @typedef {"contexts" | "functions" | "callers" | "callees"} RowMode
 * @typedef {{ mode: RowMode, node?: number | null, path?: string[], itself?: boolean }} RowsRequest
 */
/**
 * What the table pane reports.
 * @typedef {object} PaneHandlers
 * @property {(request: RowsRequest) => Promise<unknown>} fetchRows
 * @property {(request: { mode: RowMode, node: number, path: string[], add: boolean }) => void} pick
 * @property {(node: import("../cct/data/ids.js").NodeId) => void} focus
 * @property {(name: string) => void} sandwich
 * @property {(mode: PaneMode) => void} setMode
 * @property {(text: string) => void} search
 * @property {{ fetch: () => Promise<any>, compare: (index: number) => void }} changes an
 *   ensemble's changes (the Changes tab): Python's list, and "compare runs" on one
 * @property {(node: number) => Promise<unknown>} fetchSource the Source tab: Python's `source`
 * @property {(node: number) => Promise<unknown>} fetchRanks the Ranks tab: Python's `ranks`
 * @property {(rank: number | null) => void} setRank the user clicked a rank (null: every rank)
 * @property {(names: string[]) => void} [setColumns] the user chose the table's columns (table_metrics)
 */
/**
 * What the glue uses of the table pane.
 * @typedef {object} TablePane
 * @property {HTMLElement} element
 * @property {(mode: PaneMode, of: string) => Promise<void>} show
 * @property {() => Promise<void>} reload
 * @property {(ids: number[], names: string[], paths: number[][]) => Promise<void>} setSelection
 * @property {(text: string, options: { regex: boolean, caseSensitive: boolean }) => void} setSearch
 * @property {(on: boolean) => void} setChanges whether the Changes tab shows (an ensemble)
 * @property {(units: Record<string, string>) => void} setUnits the metrics' units (w.units)
 * @property {(names: string[]) => void} setMetrics the metrics the Columns menu lists
 * @property {() => void} destroy
 */

export {};
