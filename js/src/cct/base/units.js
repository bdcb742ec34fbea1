// What a metric's unit text means: the grammar of cctviz/units.json (read by Python's
// cctviz/core/units.py too; tests/conformance/units-cases.json holds the cases both agree on).
// A unit is [prefix]base[/per] with a known base (s, B, Hz, FLOP… and aliases such as sec,
// bytes): values are rescaled to the base ("ms": × 0.001). Other text of letters, digits, spaces
// and a few signs is a label ("samples"), printed as given and never rescaled. What is neither
// does not parse: `parseUnit` throws, saying what is accepted.
import { UNIT_GRAMMAR as G } from "../../contract.js";

/**
 * @typedef {object} Unit
 * @property {string} text as given (surrounding spaces dropped)
 * @property {string} symbol the base printed ("s", "B"), or the label as given
 * @property {string} per what a base is per ("s" of "B/s"); "" when none
 * @property {number} scale one of the given unit in the base ("ms": 0.001); 1 for a label
 * @property {boolean} si a known base: the prefix goes on the unit, values are rescaled
 * @property {number} smallest power of ten of the smallest prefix printed
 * @property {number} largest power of ten of the largest prefix printed (seconds: 0)
 */

/** @type {Record<string, string>} every spelling of a base → the base */
const BASE_OF = Object.fromEntries(
  Object.entries(G.bases).flatMap(([base, spec]) => [base, ...spec.aliases].map((name) => [name, base])),
);
const ALL_PREFIXES = [...Object.keys(G.prefixes), ...Object.keys(G.prefix_aliases), ...Object.keys(G.binary)].sort(
  (a, b) => b.length - a.length,
);
/** @type {Map<number, string>} power of ten → SI prefix */
export const PREFIX_OF = new Map(Object.entries(G.prefixes).map(([p, e]) => [e, p]));
export const LARGEST = Math.max(...Object.values(G.prefixes));

/** What `parseUnit` accepts, in words, for error messages. */
export function accepted() {
  const bases = Object.entries(G.bases)
    .map(([b, s]) => (s.aliases.length ? `${b} (${s.aliases.join(", ")})` : b))
    .join(", ");
  const prefixes = Object.keys(G.prefixes).filter(Boolean).join(" ");
  return (
    `a base unit ${bases} with an optional SI prefix (${prefixes}; u for µ) or, for bytes and bits, a ` +
    `binary one (${Object.keys(G.binary).join(" ")}), optionally /something (e.g. 'ms', 'usec', 'KiB', ` +
    `'GB/s'); or a label of letters, digits, spaces and "${G.label_characters.trim()}", up to ` +
    `${G.max_length} characters, not starting with a number (e.g. 'samples', 'calls')`
  );
}

/** @param {string} t @returns {string} why `t` is no unit; "" when it may be one */
function problem(t) {
  if (!t) return "it is empty";
  const length = [...t].length;
  if (length > G.max_length) return `it is ${length} characters long, more than ${G.max_length}`;
  const bad = [...t].find((c) => !(/^[\p{L}\p{N}]$/u.test(c) || G.label_characters.includes(c)));
  if (bad !== undefined) {
    const code = (bad.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0");
    return `it holds '${bad}' (U+${code}), which is no part of a unit`;
  }
  if (/^[\d+\-.]/.test(t)) return "it starts with a number: the scale goes in the prefix ('µs', not '1e-6 s')";
  return "";
}

/** @param {string} head @param {string} per @param {string} text @returns {Unit | null} */
function prefixed(head, per, text) {
  for (const prefix of ALL_PREFIXES) {
    const rest = head.slice(prefix.length);
    if (!head.startsWith(prefix) || !Object.hasOwn(BASE_OF, rest)) continue;
    const symbol = BASE_OF[rest];
    const spec = G.bases[symbol];
    let scale;
    if (Object.hasOwn(G.binary, prefix)) {
      if (!spec.binary) continue;
      scale = 2 ** G.binary[prefix];
    } else {
      scale = 10 ** G.prefixes[G.prefix_aliases[prefix] ?? prefix];
    }
    return {
      text,
      symbol,
      per,
      scale,
      si: true,
      smallest: G.prefixes[spec.smallest],
      largest: G.prefixes[spec.largest],
    };
  }
  return null;
}

/**
 * The unit `text` names. Throws an Error saying why it does not parse and what is accepted.
 * @param {unknown} text @returns {Unit}
 */
export function parseUnit(text) {
  if (typeof text !== "string") throw new Error(`a unit is text; got ${JSON.stringify(text)}. Accepted: ${accepted()}`);
  const t = text.trim();
  const why = problem(t);
  if (why) throw new Error(`unit ${JSON.stringify(text)} does not parse: ${why}. Accepted: ${accepted()}`);
  const slash = t.indexOf("/");
  const [head, per] = slash < 0 ? [t, ""] : [t.slice(0, slash).trim(), t.slice(slash + 1).trim()];
  const unit = prefixed(head, per, t);
  if (unit) return unit;
  const first = [...head][0] ?? "";
  const rest = head.slice(first.length);
  if (rest && Object.hasOwn(BASE_OF, rest) && /^\p{L}$/u.test(first)) {
    const base = BASE_OF[rest];
    const binary = G.bases[base].binary ? ` or binary 'Ki${base}' (1024 ${base})` : "";
    throw new Error(
      `unit ${JSON.stringify(text)} does not parse: '${first}' is not an SI prefix of '${base}' ` +
        `(kilo is 'k${base}'${binary}). Accepted: ${accepted()}`,
    );
  }
  return { text: t, symbol: t, per: "", scale: 1, si: false, smallest: 0, largest: LARGEST };
}

/** The unit a legend title or column header names: the base ("usec" is "s"), or the label.
 * @param {Unit} unit */
export const unitTitle = (unit) => (unit.per ? `${unit.symbol}/${unit.per}` : unit.symbol);
