// Names are untrusted text from profiles: shown as text (never HTML), and made safe to display
// and to write into SVG (XML 1.0 allows no C0 control character but tab, newline and return) and
// cut only between whole characters.

const SEGMENTER =
  typeof Intl !== "undefined" && "Segmenter" in Intl
    ? new Intl.Segmenter(undefined, { granularity: "grapheme" })
    : null;

// C0 controls (tab, newline and return included: a label is one line) and DEL
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point
const CONTROL = /[\u0000-\u001f\u007f]/g;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * `text` as it is displayed: each control character as its visible Unicode "control picture"
 * (NUL → ␀, BEL → ␇, ESC → ␛, DEL → ␡), an unpaired surrogate as U+FFFD. Other text unchanged.
 * @param {string} text
 */
export function displayText(text) {
  const safe = text.replace(LONE_SURROGATE, "\ufffd");
  return safe.replace(CONTROL, (c) => String.fromCharCode(c === "\u007f" ? 0x2421 : 0x2400 + c.charCodeAt(0)));
}

/**
 * The user-perceived characters of `text` (grapheme clusters: an emoji with its modifiers, a
 * letter with its accents), so that a cut never splits one; code points where the browser
 * lacks `Intl.Segmenter`.
 * @param {string} text
 * @returns {string[]}
 */
export function characters(text) {
  // printable ASCII (most names) is one character a code unit: no segmenter, which is slow, on
  // the label layout's path (every zoom step)
  if (SEGMENTER === null || PRINTABLE_ASCII.test(text)) return [...text];
  return Array.from(SEGMENTER.segment(text), (s) => s.segment);
}
