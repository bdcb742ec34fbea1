// Creating HTML elements: text goes in as text (never HTML), attributes as attributes.

/**
 * Appends a new `tag` element to `parent`.
 * @param {Element} parent
 * @param {string} tag
 * @param {{ className?: string, text?: string, attrs?: Record<string, string> }} [props]
 * @returns {HTMLElement}
 */
export function append(parent, tag, { className, text, attrs } = {}) {
  const el = /** @type {HTMLElement} */ (parent.appendChild(parent.ownerDocument.createElement(tag)));
  if (className) el.className = className;
  if (text !== undefined) el.textContent = text;
  for (const [name, value] of Object.entries(attrs ?? {})) el.setAttribute(name, value);
  return el;
}
