/**
 * The Content-Security-Policy of every response: scripts, styles and data come only from the inspector itself, and no
 * inline script can run, so a `<script>` that slipped into a state value or a model's answer would stay inert even if
 * a rendering bug put it into the page as markup. (Styles set through the DOM's `style` property are not inline
 * styles in CSP's sense, so bars and charts still size themselves.)
 */
export const CONTENT_SECURITY_POLICY: string = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Headers sent with every response, page, asset, JSON or error alike. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=()',
};

/**
 * JSON text that is safe even where it is misread as HTML: `<`, `>` and `&` (and the two line separators JavaScript
 * once rejected) are written as `\u` escapes, which every JSON parser reads back as the same characters.
 */
export function safeJsonText(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(
    /[<>&\u2028\u2029]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
