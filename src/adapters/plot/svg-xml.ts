// An SVG element as XML text: the one writer of chart files, the page's SVG (and the PNG drawn
// from it) and the CLI's. Node has no XMLSerializer and linkedom, the CLI's DOM, writes HTML,
// which leaves `&` and `<` in attributes as they are; the browser's XMLSerializer writes
// characters XML 1.0 cannot hold (U+0001, U+000B…) as they are, so the file does not parse and
// the PNG made from it fails. Plot's output holds only elements, attributes and text, so that is
// all this writes.

import { codePointMark } from '../../core/format/visible';

const SVG_NS = 'http://www.w3.org/2000/svg';
const XLINK_NS = 'http://www.w3.org/1999/xlink';
const XML_NS = 'http://www.w3.org/XML/1998/namespace';

/** Characters XML 1.0 cannot hold at all (most C0 controls, lone surrogates, U+FFFE/U+FFFF). */
const NOT_XML =
  // eslint-disable-next-line no-control-regex -- these are the characters to find
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Such a character shown as the page shows control characters (`⟨U+0001⟩`), so the file reads the same. */
const text = (s: string) =>
  s.replace(NOT_XML, codePointMark).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const attribute = (s: string) =>
  text(s).replace(/"/g, '&quot;').replace(/\t/g, '&#9;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;');

/** An attribute's name in the file: xlink's and xml's keep their prefix (Plot's links use xlink:href). */
function attributeName(a: Attr): string {
  if (a.namespaceURI === XLINK_NS) return `xlink:${a.localName}`;
  if (a.namespaceURI === XML_NS) return `xml:${a.localName}`;
  return a.name;
}

/** The element and what it holds as well-formed XML, the SVG namespace declared on it. */
export function svgXml(root: Element): string {
  const out: string[] = [];
  let xlink = false;
  const write = (node: Node) => {
    if (node.nodeType === 3) {
      out.push(text(node.nodeValue ?? ''));
      return;
    }
    if (node.nodeType !== 1) return; // comments and the like carry nothing a viewer shows
    const el = node as Element;
    const name = el.localName || el.tagName;
    out.push(`<${name}`);
    for (const a of Array.from(el.attributes)) {
      if (a.name === 'xmlns' || a.name.startsWith('xmlns:')) continue;
      const written = attributeName(a);
      if (written.startsWith('xlink:')) xlink = true;
      out.push(` ${written}="${attribute(a.value)}"`);
    }
    if (!el.firstChild) {
      out.push('/>');
      return;
    }
    out.push('>');
    for (const child of Array.from(el.childNodes)) write(child);
    out.push(`</${name}>`);
  };
  write(root);
  // The namespaces go on the root, once, after the walk has seen whether xlink is used.
  out[0] += ` xmlns="${SVG_NS}"${xlink ? ` xmlns:xlink="${XLINK_NS}"` : ''}`;
  return out.join('');
}
