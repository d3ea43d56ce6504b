// An SVG element as XML text, for the CLI's chart files: Node has no XMLSerializer, and the
// small DOM the CLI uses (linkedom) writes HTML, which leaves `&` and `<` in attributes as they
// are — database text in a label would make the file unreadable. Plot's output holds only
// elements, attributes and text, so that is all this writes.

const SVG_NS = 'http://www.w3.org/2000/svg';

/** Characters XML 1.0 cannot hold at all (most C0 controls, lone surrogates, U+FFFE/U+FFFF). */
const NOT_XML =
  // eslint-disable-next-line no-control-regex -- these are the characters to find
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

const text = (s: string) =>
  s.replace(NOT_XML, '\uFFFD').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const attribute = (s: string) =>
  text(s).replace(/"/g, '&quot;').replace(/\t/g, '&#9;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;');

/** The element and what it holds as well-formed XML, the SVG namespace declared on it. */
export function svgXml(root: Element): string {
  const out: string[] = [];
  const write = (node: Node, isRoot: boolean) => {
    if (node.nodeType === 3) {
      out.push(text(node.nodeValue ?? ''));
      return;
    }
    if (node.nodeType !== 1) return; // comments and the like carry nothing a viewer shows
    const el = node as Element;
    const name = el.localName || el.tagName;
    out.push(`<${name}`);
    if (isRoot) out.push(` xmlns="${SVG_NS}"`);
    for (const a of Array.from(el.attributes)) {
      if (a.name === 'xmlns' || a.name.startsWith('xmlns:')) continue;
      out.push(` ${a.name}="${attribute(a.value)}"`);
    }
    if (!el.firstChild) {
      out.push('/>');
      return;
    }
    out.push('>');
    for (const child of Array.from(el.childNodes)) write(child, false);
    out.push(`</${name}>`);
  };
  write(root, true);
  return out.join('');
}
