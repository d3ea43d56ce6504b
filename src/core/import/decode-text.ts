// A table file's bytes as text: UTF-8 (its byte-order mark dropped by the parser), else the
// Windows-1252 that spreadsheets on Windows still write; never a failure on an odd byte.

export function decodeText(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}
