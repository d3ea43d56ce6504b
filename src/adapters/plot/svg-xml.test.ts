// @vitest-environment jsdom
// The chart files' SVG writer (the page's and the CLI's): what it writes parses as XML and reads back as the same text and
// attributes, whatever the database put in a label.
import { describe, expect, it } from 'vitest';
import { svgXml } from './svg-xml';

const NS = 'http://www.w3.org/2000/svg';

describe('svgXml', () => {
  it('keeps hostile text as text and attributes as attributes', () => {
    const svg = document.createElementNS(NS, 'svg');
    const label = 'a < b & "c" \'d\' </text><script>x()</script>\ttab\nline';
    svg.setAttribute('aria-label', label);
    const text = document.createElementNS(NS, 'text');
    text.textContent = label;
    const empty = document.createElementNS(NS, 'rect');
    svg.append(text, empty);
    const xml = svgXml(svg);
    expect(xml.startsWith(`<svg xmlns="${NS}" aria-label="`)).toBe(true);
    const back = new DOMParser().parseFromString(xml, 'image/svg+xml');
    expect(back.querySelector('parsererror')).toBeNull();
    expect(back.documentElement.getAttribute('aria-label')).toBe(label);
    expect(back.querySelector('text')?.textContent).toBe(label);
    expect(back.querySelector('script')).toBeNull();
    expect(back.querySelectorAll('rect')).toHaveLength(1);
  });

  it('writes characters XML cannot hold, which text from a database may contain, as the page shows them', () => {
    const svg = document.createElementNS(NS, 'svg');
    const text = document.createElementNS(NS, 'text');
    text.textContent = 'bell\u0007 nul\u0000 vt\u000B ff\uFFFF lone\uD800 low\uDC00 pair😀 tab\t';
    svg.setAttribute('aria-label', 'soh\u0001 fffe\uFFFE');
    svg.append(text);
    const back = new DOMParser().parseFromString(svgXml(svg), 'image/svg+xml');
    expect(back.querySelector('parsererror')).toBeNull();
    expect(back.querySelector('text')?.textContent).toBe(
      'bell⟨U+0007⟩ nul⟨U+0000⟩ vt⟨U+000B⟩ ff⟨U+FFFF⟩ lone⟨U+D800⟩ low⟨U+DC00⟩ pair😀 tab\t',
    );
    expect(back.documentElement.getAttribute('aria-label')).toBe('soh⟨U+0001⟩ fffe⟨U+FFFE⟩');
  });

  it('keeps an xlink attribute bound to its namespace, declared once on the root', () => {
    const XLINK = 'http://www.w3.org/1999/xlink';
    const svg = document.createElementNS(NS, 'svg');
    const link = document.createElementNS(NS, 'a');
    link.setAttributeNS(XLINK, 'href', 'https://example.org/?a=1&b=2');
    svg.append(link);
    const xml = svgXml(svg);
    expect(xml).toBe(
      `<svg xmlns="${NS}" xmlns:xlink="${XLINK}"><a xlink:href="https://example.org/?a=1&amp;b=2"/></svg>`,
    );
    const back = new DOMParser().parseFromString(xml, 'image/svg+xml');
    expect(back.querySelector('parsererror')).toBeNull();
    expect(back.querySelector('a')?.getAttributeNS(XLINK, 'href')).toBe('https://example.org/?a=1&b=2');
  });

  it('declares the namespace once even when the element carries it as an attribute', () => {
    const svg = document.createElementNS(NS, 'svg');
    svg.setAttribute('xmlns', NS);
    expect(svgXml(svg)).toBe(`<svg xmlns="${NS}"/>`);
  });
});
