// Leaving the editor from the keyboard ("Esc then Tab"): focus moves to the next (or previous)
// focusable element of the page outside the editor, as Tab would outside it.

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), summary, [tabindex]:not([tabindex="-1"])';

export function focusOutside(container: HTMLElement, direction: 1 | -1): void {
  const all = [...document.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (el) => !container.contains(el) && el.getClientRects().length > 0,
  );
  const after = (el: HTMLElement) => !!(container.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING);
  const target = direction === 1 ? all.find(after) : [...all].reverse().find((el) => !after(el));
  target?.focus();
}
