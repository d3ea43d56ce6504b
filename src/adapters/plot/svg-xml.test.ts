// @vitest-environment jsdom
// The CLI's SVG writer: what it writes parses as XML and reads back as the same text and
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

  it('replaces characters XML cannot hold, which text from a database may contain', () => {
    const svg = document.createElementNS(NS, 'svg');
    const text = document.createElementNS(NS, 'text');
    text.textContent = 'bell\u0007 nul\u0000 lone\uD800 pair😀';
    svg.append(text);
    const back = new DOMParser().parseFromString(svgXml(svg), 'image/svg+xml');
    expect(back.querySelector('parsererror')).toBeNull();
    expect(back.querySelector('text')?.textContent).toBe('bell\uFFFD nul\uFFFD lone\uFFFD pair😀');
  });

  it('declares the namespace once even when the element carries it as an attribute', () => {
    const svg = document.createElementNS(NS, 'svg');
    svg.setAttribute('xmlns', NS);
    expect(svgXml(svg)).toBe(`<svg xmlns="${NS}"/>`);
  });
});
