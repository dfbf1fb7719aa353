import { createHash } from 'node:crypto';

/**
 * The headers every answer of the admin UI carries, locally (lib/ui/site.ts) and through
 * CloudFront (infra/constructs/admin-ui.ts, a response-headers policy built from the same
 * values): a Content-Security-Policy that Unleash's build, served unchanged, satisfies, and
 * nothing that lets another site frame it (clickjacking on the pages that change flags).
 *
 * Every source beyond the UI's own origin is one the build loads in the open-source UI:
 * - scripts: its own files only (`'self'`), plus any inline `<script>` of index.html by its
 *   SHA-256, so no 'unsafe-inline' or 'unsafe-eval' (7.6.5's index.html has none). One bundled
 *   library probes for the global object with `Function('return this')` and, refused, uses
 *   `window`; 'report-sample' puts the refused text in the violation, so that probe can be told
 *   apart from anything else refused;
 * - styles: its own style sheet, Google Fonts' style sheets (linked from index.html), and inline
 *   styles, because its component library (MUI with emotion) writes `<style>` elements at run
 *   time with no nonce to give it: CSS cannot run script, so this leaves scripts as strict;
 * - fonts: Google Fonts' font files, which those style sheets name;
 * - images: its own, `data:` (icons inlined in its CSS) and each user's Gravatar avatar
 *   (lib/users/model.ts answers `imageUrl` there);
 * - connections: its own origin, where the UI calls the API (the analytics and feedback calls
 *   in the build go to Unleash's hosts only in Unleash's hosted edition, and are refused here);
 * - media and frames: the product video on the release-management splash and the Unleash Edge
 *   explainer video on the integrations page, Unleash's own hosts for them;
 * - no plugins, no `<base>`, and no page may frame the UI.
 * No form-action: logging out posts a form whose answer redirects to the identity provider's
 * end-session page (single sign-out), an origin set at run time, and a browser checks the
 * redirect's target against form-action too.
 */
export const UI_EXTERNAL_SOURCES = {
  style: ['https://fonts.googleapis.com'],
  font: ['https://fonts.gstatic.com'],
  img: ['https://gravatar.com'],
  media: ['https://cdn.getunleash.io'],
  frame: ['https://www.youtube-nocookie.com'],
} as const;

/** The UI's Content-Security-Policy for this index.html (its inline scripts allowed by hash). */
export function uiContentSecurityPolicy(indexHtml: string): string {
  return [
    "default-src 'self'",
    ['script-src', "'self'", "'report-sample'", ...inlineScripts(indexHtml).map(hashSource)].join(' '),
    ['style-src', "'self'", "'unsafe-inline'", ...UI_EXTERNAL_SOURCES.style].join(' '),
    ['font-src', "'self'", ...UI_EXTERNAL_SOURCES.font].join(' '),
    ['img-src', "'self'", 'data:', ...UI_EXTERNAL_SOURCES.img].join(' '),
    "connect-src 'self'",
    ['media-src', "'self'", ...UI_EXTERNAL_SOURCES.media].join(' '),
    ['frame-src', ...UI_EXTERNAL_SOURCES.frame].join(' '),
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The headers of every UI answer: the policy and, for browsers that predate frame-ancestors, X-Frame-Options. */
export function uiSecurityHeaders(indexHtml: string): Record<string, string> {
  return {
    'content-security-policy': uiContentSecurityPolicy(indexHtml),
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
  };
}

/** How long browsers keep to HTTPS once told (a year); CloudFront says so, the local server is plain HTTP. */
export const HSTS_MAX_AGE_SECONDS = 31_536_000;

/** The text of each `<script>` without a `src`, exactly as the browser hashes it. */
function inlineScripts(html: string): string[] {
  return [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)]
    .filter(([, attributes = '']) => !/\bsrc\s*=/i.test(attributes))
    .map(([, , text = '']) => text)
    .filter((text) => text.length > 0);
}

const hashSource = (content: string): string => `'sha256-${createHash('sha256').update(content, 'utf8').digest('base64')}'`;
