/**
 * Text from the audited server made harmless for a terminal: every control character (C0, DEL,
 * C1) and every bidirectional formatting character is written as an escape (`\x1b`, `\u202e`),
 * so a hostile answer can neither move the cursor, clear the screen, retitle the window, write
 * the clipboard (OSC 52), overwrite a line with `\r`, nor reorder what is shown (Trojan Source).
 */

// C0 controls, DEL and C1 controls (ECMA-48), then the Unicode bidi controls (UAX #9).
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters to escape
const unsafe = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** `text` with every control and bidi character escaped as `\xNN` or `\uNNNN`. */
export function escapeControls(text: string): string {
  return text.replace(unsafe, (char) => {
    const code = char.charCodeAt(0);
    return code <= 0xff
      ? `\\x${code.toString(16).padStart(2, '0')}`
      : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/**
 * JSON text with the characters JSON.stringify leaves raw (DEL, C1, bidi) written as `\uNNNN`
 * escapes: the same JSON value, safe to print on a terminal.
 */
export function escapeJsonControls(json: string): string {
  return json.replace(unsafe, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
