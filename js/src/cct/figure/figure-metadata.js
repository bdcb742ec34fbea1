// A figure's <title> and <metadata>: Dublin Core for generic tools, and cctviz's provenance as
// JSON (the tree's figures and the tree-table's), so that a figure says what drew it from what.
import { SVG_NS } from "../draw/svg/overlay.js";

const RDF_NS = "http://www.w3.org/1999/02/22-rdf-syntax-ns#";
const DC_NS = "http://purl.org/dc/elements/1.1/";
export const PROVENANCE_NS = "https://github.com/cctviz/cctviz#provenance";

/**
 * <title> and <metadata>: Dublin Core for generic tools, and cctviz's provenance as JSON (the
 * tree's figures and the tree-table's).
 * @param {SVGSVGElement} svg @param {string} title @param {Record<string, unknown>} provenance
 */
export function describeFigure(svg, title, provenance) {
  const doc = svg.ownerDocument;
  /** @param {string} ns @param {string} name @param {string | null} [text] */
  const el = (ns, name, text = null) => {
    const node = doc.createElementNS(ns, name);
    if (text !== null) node.textContent = text; // text, never markup: names are untrusted
    return node;
  };
  const metadata = el(SVG_NS, "metadata");
  const rdf = metadata.appendChild(el(RDF_NS, "rdf:RDF"));
  const about = rdf.appendChild(el(RDF_NS, "rdf:Description"));
  about.appendChild(el(DC_NS, "dc:title", title));
  about.appendChild(el(DC_NS, "dc:format", "image/svg+xml"));
  if (provenance.generator) about.appendChild(el(DC_NS, "dc:creator", String(provenance.generator)));
  if (provenance.created) about.appendChild(el(DC_NS, "dc:date", String(provenance.created)));
  if (provenance.source) about.appendChild(el(DC_NS, "dc:source", String(provenance.source)));
  const record = el(PROVENANCE_NS, "cctviz:provenance", JSON.stringify(provenance));
  record.setAttribute("format", "application/json");
  metadata.appendChild(record);
  svg.insertBefore(metadata, svg.firstChild);
  svg.insertBefore(el(SVG_NS, "title", title), svg.firstChild);
}
