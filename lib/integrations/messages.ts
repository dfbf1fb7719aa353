import { createHmac } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { UnleashEvent } from '../events/wire.js';
import type { Integration } from './model.js';
import { SIGNATURE_HEADER } from './providers.js';
import { renderTemplate } from './template.js';

/** One HTTP request a delivery makes. */
export interface OutgoingRequest {
  url: string;
  headers: Record<string, string>;
  /** Bytes when the body is compressed (New Relic's Event API takes gzip). */
  body: string | Buffer;
}

/** What a provider sends for one event, before anything is sent. */
export type Message =
  | { kind: 'http'; requests: OutgoingRequest[]; details: Record<string, unknown>; warnings: string[]; label: string }
  | { kind: 'bus'; detailType: string; detail: UnleashEvent; details: Record<string, unknown> }
  /** Nothing can be sent with this configuration; trying again would not help. */
  | { kind: 'unsendable'; reason: string };

export interface MessageContext {
  /** Where the admin UI is, for links to the feature. */
  publicUrl: string;
  /** Slack's Web API; a test points it at its own receiver. */
  slackApiUrl: string;
}

export const DATADOG_EVENTS_URL = 'https://api.datadoghq.com/api/v1/events';
export const SLACK_API_URL = 'https://slack.com/api';
/** Slack refuses longer texts in one message section; Unleash trims to the same length. */
const SLACK_TEXT_LIMIT = 3000;

/** `sha256=<hex>`: the HMAC-SHA256 of the exact body bytes, keyed with the webhook's signing secret. */
export function signBody(body: string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;
}

/** The message an integration sends for an event. */
export function messageFor(integration: Integration, event: UnleashEvent, context: MessageContext): Message {
  const p = integration.parameters;
  const link = featureLink(event, context.publicUrl);
  const markdown = `${event.summary}${event.project ? ` (project **${event.project}**)` : ''}`;
  const headers = customHeaders(p.customHeaders);
  switch (integration.provider) {
    case 'webhook': {
      // Unleash's log names the URL too; here it is a sensitive parameter, so the log leaves it out.
      const template = p.bodyTemplate ?? '';
      const body = template.length > 1
        ? renderTemplate(template, { event, eventJson: JSON.stringify(JSON.stringify(event)), eventMarkdown: markdown })
        : JSON.stringify(event);
      const requestHeaders: Record<string, string> = { 'Content-Type': p.contentType || 'application/json', ...headers.values };
      if (p.authorization) requestHeaders.Authorization = p.authorization;
      if (p.signingSecret) requestHeaders[SIGNATURE_HEADER] = signBody(body, p.signingSecret);
      return { kind: 'http', label: 'Webhook', requests: [{ url: p.url ?? '', headers: requestHeaders, body }], details: { contentType: requestHeaders['Content-Type'], body: template.length > 1 ? body : event }, warnings: headers.warnings };
    }
    case 'teams': {
      const body = {
        themeColor: '0076D7',
        summary: 'Message',
        sections: [{ activityTitle: markdown, activitySubtitle: 'Unleash notification update', facts: [{ name: 'User', value: event.createdBy }, { name: 'Action', value: event.type }] }],
        potentialAction: [{ '@type': 'OpenUri', name: 'Go to feature', targets: [{ os: 'default', uri: link }] }],
      };
      return { kind: 'http', label: 'Teams webhook', requests: [{ url: p.url ?? '', headers: { 'Content-Type': 'application/json', ...headers.values }, body: JSON.stringify(body) }], details: { body }, warnings: headers.warnings };
    }
    case 'datadog': {
      const template = p.bodyTemplate ?? '';
      const text = template.length > 1 ? renderTemplate(template, { event }) : `%%% \n ${markdown}${link ? ` ([open](${link}))` : ''} \n %%% `;
      const body: Record<string, unknown> = { text, title: 'Unleash notification update', tags: tagsOf(event).map((tag) => `${tag.type}:${tag.value}`) };
      if (p.sourceTypeName) body.source_type_name = p.sourceTypeName;
      const url = p.url || DATADOG_EVENTS_URL;
      return { kind: 'http', label: 'Datadog Events API', requests: [{ url, headers: { 'Content-Type': 'application/json', 'DD-API-KEY': p.apiKey ?? '', ...headers.values }, body: JSON.stringify(body) }], details: { url, body }, warnings: headers.warnings };
    }
    case 'new-relic': {
      const body = {
        eventType: 'UnleashServiceEvent', unleashEventType: event.type, featureName: event.featureName, environment: event.environment,
        createdBy: event.createdBy, createdByUserId: event.createdByUserId, createdAt: Date.parse(event.createdAt),
      };
      return {
        kind: 'http',
        label: 'New Relic Events API',
        requests: [{
          url: p.url ?? '',
          headers: { 'Api-Key': p.licenseKey ?? '', 'Content-Type': 'application/json', 'Content-Encoding': 'gzip', ...headers.values },
          body: gzipSync(JSON.stringify(body)),
        }],
        details: { body },
        warnings: headers.warnings,
      };
    }
    case 'slack-app': {
      const channels = [...new Set([...taggedChannels(event), ...(p.defaultChannels ?? '').split(',').map((channel) => channel.trim()).filter(Boolean)])];
      if (!p.accessToken) return { kind: 'unsendable', reason: 'No access token provided.' };
      if (channels.length === 0) return { kind: 'unsendable', reason: `No Slack channels found for event ${event.type}.` };
      const full = slackText(markdown);
      const text = full.slice(0, SLACK_TEXT_LIMIT);
      const blocks: unknown[] = [{ type: 'section', text: { type: 'mrkdwn', text } }];
      if (link) blocks.push({ type: 'actions', elements: [{ type: 'button', url: link, text: { type: 'plain_text', text: 'Open in Unleash' }, value: 'featureToggle', style: 'primary' }] });
      return {
        kind: 'http',
        label: 'Slack client',
        requests: channels.map((channel) => ({
          url: `${context.slackApiUrl}/chat.postMessage`,
          headers: { 'Content-Type': 'application/json; charset=utf-8', Authorization: `Bearer ${p.accessToken}` },
          body: JSON.stringify({ channel, text, blocks, unfurl_links: false }),
        })),
        details: { channels, message: text.length < full.length ? `${full} (trimmed to ${SLACK_TEXT_LIMIT} characters)` : full },
        warnings: [],
      };
    }
    case 'amazon-eventbridge':
      return { kind: 'bus', detailType: `${p.detailTypePrefix ?? ''}${event.type}`, detail: event, details: { detailType: `${p.detailTypePrefix ?? ''}${event.type}` } };
    case 'slack':
      return { kind: 'unsendable', reason: 'This integration is deprecated. Please try the new App for Slack integration instead.' };
  }
}

/** Slack's mrkdwn marks bold with one asterisk. */
function slackText(markdown: string): string {
  return markdown.replaceAll('**', '*');
}

function taggedChannels(event: UnleashEvent): string[] {
  return tagsOf(event).filter((tag) => tag.type === 'slack').map((tag) => tag.value);
}

/** The feature's tags on the event: none yet, as the recorded events do not carry them (lib/events/wire.ts). */
function tagsOf(event: UnleashEvent): Array<{ type: string; value: string }> {
  return event.tags as Array<{ type: string; value: string }>;
}

function featureLink(event: UnleashEvent, publicUrl: string): string {
  if (!event.featureName || !event.project) return '';
  return `${publicUrl.replace(/\/+$/, '')}/projects/${encodeURIComponent(event.project)}/features/${encodeURIComponent(event.featureName)}`;
}

/** A JSON object of strings; anything else is left out with the warning Unleash records. */
function customHeaders(raw: string | undefined): { values: Record<string, string>; warnings: string[] } {
  if (typeof raw !== 'string' || raw.length <= 1) return { values: {}, warnings: [] };
  try {
    const parsed: unknown = JSON.parse(raw);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
      return { values: Object.fromEntries(Object.entries(parsed).filter(([, value]) => typeof value === 'string')) as Record<string, string>, warnings: [] };
    }
  } catch {
    // Answered as the warning below.
  }
  return { values: {}, warnings: ['Could not parse the JSON in the customHeaders parameter.'] };
}
