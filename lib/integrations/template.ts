/**
 * The part of Mustache that body templates use: `{{name.path}}` HTML-escaped as Mustache
 * escapes it, `{{{name.path}}}` and `{{& name.path}}` as they are. A name that is missing
 * renders as nothing; sections and partials are not interpreted and stay as written.
 */
export function renderTemplate(template: string, context: Record<string, unknown>): string {
  return template.replace(/\{\{\{\s*([\w.-]+)\s*\}\}\}|\{\{\s*(&)?\s*([\w.-]+)\s*\}\}/g, (_match, raw: string | undefined, amp: string | undefined, name: string | undefined) => {
    const value = lookup(context, (raw ?? name) as string);
    const text = value === undefined || value === null ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
    return raw !== undefined || amp !== undefined ? text : escapeHtml(text);
  });
}

function lookup(context: Record<string, unknown>, path: string): unknown {
  let value: unknown = context;
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object' || !Object.prototype.hasOwnProperty.call(value, part)) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '/': '&#x2F;', '`': '&#x60;', '=': '&#x3D;' };

function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`=/]/g, (char) => ESCAPES[char] as string);
}
