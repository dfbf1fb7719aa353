/**
 * The integration providers, described as Unleash 7.6.5's `GET /api/admin/addons` describes
 * them (`providers`): the admin UI draws each integration's form from these definitions, so the
 * names, types, flags and event lists are Unleash's; the help texts are this service's words.
 * Beyond Unleash: a webhook's `signingSecret`, and the Amazon EventBridge provider.
 */
export interface ProviderParameter {
  name: string;
  displayName: string;
  type: 'url' | 'text' | 'textfield';
  description?: string;
  placeholder?: string;
  required: boolean;
  /** Stored sealed, answered masked (`*****`), and kept when a change sends the mask back. */
  sensitive: boolean;
}

export interface ProviderDefinition {
  name: ProviderName;
  displayName: string;
  description: string;
  documentationUrl: string;
  howTo?: string;
  /** Set on providers Unleash still lists but no longer lets anyone configure. */
  deprecated?: string;
  alerts?: Array<{ type: 'success' | 'info' | 'warning' | 'error'; text: string }>;
  installation?: { url: string; title?: string; helpText?: string };
  parameters: ProviderParameter[];
  events: string[];
  tagTypes?: Array<{ name: string; description: string; icon: string }>;
}

export const PROVIDER_NAMES = ['webhook', 'slack', 'slack-app', 'teams', 'datadog', 'new-relic', 'amazon-eventbridge'] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];

/** The mask Unleash answers for a sensitive parameter, and accepts back as "unchanged". */
export const MASKED_VALUE = '*****';

const FEATURE_EVENTS = [
  'feature-created', 'feature-updated', 'feature-archived', 'feature-revived', 'feature-stale-on', 'feature-stale-off',
  'feature-environment-enabled', 'feature-environment-disabled', 'feature-strategy-remove', 'feature-strategy-update',
  'feature-strategy-add', 'feature-metadata-updated',
];
const CHANGE_REQUEST_EVENTS = [
  'change-request-created', 'change-request-discarded', 'change-added', 'change-discarded', 'change-request-approved',
  'change-request-approval-added', 'change-request-cancelled', 'change-request-sent-to-review', 'change-request-applied',
  'change-request-scheduled', 'change-request-scheduled-application-success', 'change-request-scheduled-application-failure',
  'change-request-schedule-suspended',
];
const RELEASE_PLAN_EVENTS = ['release-plan-progressions-paused', 'release-plan-progressions-resumed'];

const customHeaders = (placeholder: string): ProviderParameter => ({
  name: 'customHeaders',
  displayName: 'Extra HTTP Headers',
  placeholder,
  description: '(Optional) More HTTP headers for each request, as a JSON object whose keys and values are strings.',
  required: false,
  sensitive: true,
  type: 'textfield',
});
const HEADERS_PLACEHOLDER = '{\n  "ISTIO_USER_KEY": "hunter2",\n  "SOME_OTHER_CUSTOM_HTTP_HEADER": "SOMEVALUE"\n}';
const SLACK_TAG = { name: 'slack', description: 'A feature tag naming a Slack channel to notify about that feature.', icon: 'S' };

/** What a webhook signs its body with, and the header the signature travels in (README, Integrations). */
export const SIGNATURE_HEADER = 'X-Toggles-Signature-256';

export const PROVIDERS: readonly ProviderDefinition[] = [
  {
    name: 'webhook',
    displayName: 'Webhook',
    description: 'A webhook posts each chosen event to a URL of yours.',
    documentationUrl: 'https://docs.getunleash.io/docs/addons/webhook',
    howTo: 'The webhook posts each event it subscribes to, as JSON or through a body template, to the URL you give. '
      + `With a signing secret, each request carries ${SIGNATURE_HEADER}: sha256=<HMAC-SHA256 of the body, hex>.`,
    parameters: [
      { name: 'url', displayName: 'Webhook URL', description: '(Required) Each event is sent to this URL with an HTTP POST; a failed delivery is tried again with backoff.', type: 'url', required: true, sensitive: true },
      { name: 'contentType', displayName: 'Content-Type', placeholder: 'application/json', description: '(Optional) The Content-Type header of each request; application/json when empty.', type: 'text', required: false, sensitive: false },
      { name: 'authorization', displayName: 'Authorization', placeholder: '', description: '(Optional) An Authorization header for each request; none when empty.', type: 'text', required: false, sensitive: true },
      customHeaders(HEADERS_PLACEHOLDER),
      {
        name: 'bodyTemplate',
        displayName: 'Body template',
        placeholder: '{\n  "event": "{{event.type}}",\n  "createdBy": "{{event.createdBy}}",\n  "featureToggle": "{{event.featureName}}",\n  "timestamp": "{{event.createdAt}}",\n  "json": {{{eventJson}}}\n}',
        description: '(Optional) A Mustache template for the body; the event as JSON when empty. `{{{eventJson}}}` is the whole event, `"{{eventMarkdown}}"` its description.',
        type: 'textfield',
        required: false,
        sensitive: false,
      },
      {
        name: 'signingSecret',
        displayName: 'Signing secret',
        description: `(Optional) With a secret, each request carries ${SIGNATURE_HEADER}: sha256=<HMAC-SHA256 of the body with this secret, in hex>, so the receiver can check it came from here.`,
        type: 'text',
        required: false,
        sensitive: true,
      },
    ],
    events: [...FEATURE_EVENTS, 'feature-variants-updated', 'feature-project-change', 'feature-tagged', 'feature-untagged', 'feature-completed', ...CHANGE_REQUEST_EVENTS, 'feature-potentially-stale-on', ...RELEASE_PLAN_EVENTS],
  },
  {
    name: 'slack',
    displayName: 'Slack',
    description: 'Posts events to Slack through an incoming webhook.',
    documentationUrl: 'https://docs.getunleash.io/docs/addons/slack',
    deprecated: 'This integration is deprecated. Please try the new App for Slack integration instead.',
    alerts: [{ type: 'warning', text: 'This integration is deprecated. Please try the new App for Slack integration instead.' }],
    parameters: [
      { name: 'url', displayName: 'Slack webhook URL', description: '(Required)', type: 'url', required: true, sensitive: true },
      { name: 'username', displayName: 'Username', placeholder: 'Unleash', description: 'The name messages are posted under; "Unleash" when empty.', type: 'text', required: false, sensitive: false },
      { name: 'emojiIcon', displayName: 'Emoji Icon', placeholder: ':unleash:', description: 'The emoji messages are posted with; ":unleash:" when empty.', type: 'text', required: false, sensitive: false },
      { name: 'defaultChannel', displayName: 'Default channel', description: '(Required) Where to post when the feature has no slack tag.', type: 'text', required: true, sensitive: false },
      customHeaders(HEADERS_PLACEHOLDER),
    ],
    events: [...FEATURE_EVENTS, 'feature-variants-updated', 'feature-project-change', 'feature-potentially-stale-on', ...RELEASE_PLAN_EVENTS],
    tagTypes: [SLACK_TAG],
  },
  {
    name: 'slack-app',
    displayName: 'App for Slack',
    description: 'Posts events to Slack channels through the Unleash App for Slack.',
    howTo: 'Choose the channels that receive the events below, and filter the events by project and environment if you like. '
      + 'Public channels are open to the app; invite it to a private channel before naming that channel.',
    documentationUrl: 'https://docs.getunleash.io/docs/addons/slack-app',
    installation: {
      url: 'https://app-for-slack.getunleash.io/install',
      title: 'App for Slack installation',
      helpText: 'Install the App for Slack in your workspace, then paste the access token it gives you below.',
    },
    parameters: [
      { name: 'accessToken', displayName: 'Access token', description: '(Required)', type: 'text', required: true, sensitive: true },
      { name: 'defaultChannels', displayName: 'Channels', description: 'Channels to post every chosen event to, separated by commas.', type: 'text', required: false, sensitive: false },
    ],
    events: [
      'addon-config-created', 'addon-config-deleted', 'addon-config-updated', 'api-token-created', 'api-token-deleted',
      'change-added', 'change-discarded', 'change-edited', 'change-request-applied', 'change-request-approval-added',
      'change-request-approved', 'change-request-cancelled', 'change-request-created', 'change-request-discarded',
      'change-request-rejected', 'change-request-sent-to-review', 'change-request-scheduled',
      'change-request-scheduled-application-success', 'change-request-scheduled-application-failure',
      'change-request-schedule-suspended', ...RELEASE_PLAN_EVENTS, 'context-field-created', 'context-field-deleted',
      'context-field-updated', 'feature-archived', 'feature-created', 'feature-deleted', 'feature-environment-disabled',
      'feature-environment-enabled', 'feature-environment-variants-updated', 'feature-metadata-updated',
      'feature-potentially-stale-on', 'feature-project-change', 'feature-revived', 'feature-stale-off', 'feature-stale-on',
      'feature-strategy-add', 'feature-strategy-remove', 'feature-strategy-update', 'feature-tagged', 'feature-untagged',
      'group-created', 'group-deleted', 'group-updated', 'banner-created', 'banner-updated', 'banner-deleted',
      'project-created', 'project-archived', 'project-deleted', 'segment-created', 'segment-deleted', 'segment-updated',
      'service-account-created', 'service-account-deleted', 'service-account-updated', 'user-created', 'user-deleted',
      'user-updated', 'user-access-request-registered', 'user-access-request-approved', 'user-access-request-rejected',
    ],
    tagTypes: [SLACK_TAG],
  },
  {
    name: 'teams',
    displayName: 'Microsoft Teams',
    description: 'Posts events to a Microsoft Teams channel through an incoming webhook.',
    documentationUrl: 'https://docs.getunleash.io/docs/addons/teams',
    howTo: 'Each chosen event becomes a message card in the channel of the webhook.',
    parameters: [
      { name: 'url', displayName: 'Microsoft Teams webhook URL', description: '(Required)', type: 'url', required: true, sensitive: true },
      customHeaders(HEADERS_PLACEHOLDER),
    ],
    events: [...FEATURE_EVENTS, 'feature-variants-updated', 'feature-project-change', 'feature-potentially-stale-on', 'change-added', 'change-discarded', 'change-edited',
      'change-request-applied', 'change-request-approval-added', 'change-request-approved', 'change-request-cancelled',
      'change-request-created', 'change-request-discarded', 'change-request-rejected', 'change-request-sent-to-review',
      'change-request-scheduled', 'change-request-scheduled-application-success', 'change-request-scheduled-application-failure',
      'change-request-schedule-suspended', ...RELEASE_PLAN_EVENTS],
  },
  {
    name: 'datadog',
    displayName: 'Datadog',
    description: "Sends events to Datadog's event stream.",
    documentationUrl: 'https://docs.getunleash.io/docs/addons/datadog',
    howTo: 'Each chosen event becomes an event in Datadog, with the feature\'s datadog tags.',
    parameters: [
      { name: 'url', displayName: 'Datadog Events URL', description: 'https://api.datadoghq.com/api/v1/events when empty; another site (EU, US3 …) needs its own.', type: 'url', required: false, sensitive: false },
      { name: 'apiKey', displayName: 'Datadog API key', placeholder: 'j96c23b0f12a6b3434a8d710110bd862', description: '(Required) The API key the events are sent with.', type: 'text', required: true, sensitive: true },
      { name: 'sourceTypeName', displayName: 'Datadog Source Type Name', description: "(Optional) Datadog's source_type_name of each event.", type: 'text', required: false, sensitive: false },
      customHeaders('{\n  "SOME_CUSTOM_HTTP_HEADER": "SOME_VALUE",\n  "SOME_OTHER_CUSTOM_HTTP_HEADER": "SOME_OTHER_VALUE"\n}'),
      {
        name: 'bodyTemplate',
        displayName: 'Body template',
        placeholder: '{\n  "event": "{{event.type}}",\n  "createdBy": "{{event.createdBy}}",\n  "featureToggle": "{{event.featureName}}",\n  "timestamp": "{{event.createdAt}}"\n}',
        description: "(Optional) A Mustache template for the event's text; a markdown description of the event when empty.",
        required: false,
        sensitive: false,
        type: 'textfield',
      },
    ],
    events: [...FEATURE_EVENTS, 'feature-project-change', 'feature-environment-variants-updated', 'feature-potentially-stale-on'],
    tagTypes: [{ name: 'datadog', description: 'Feature tags of this type are sent with its events to Datadog.', icon: 'D' }],
  },
  {
    name: 'new-relic',
    displayName: 'New Relic',
    description: "Sends events to New Relic's Event API.",
    documentationUrl: 'https://docs.getunleash.io/integrate',
    howTo: 'Each chosen event becomes an UnleashServiceEvent in New Relic, sent gzipped with your license key.',
    parameters: [
      { name: 'url', displayName: 'New Relic Event URL', description: '(Required) Your account\'s Event API URL, such as https://insights-collector.newrelic.com/v1/accounts/YOUR_ACCOUNT_ID/events (EU accounts have their own).', type: 'url', required: true, sensitive: false },
      { name: 'licenseKey', displayName: 'New Relic License Key', placeholder: 'eu01xx0f12a6b3434a8d710110bd862', description: '(Required) The license key the events are sent with.', type: 'text', required: true, sensitive: true },
      customHeaders('{\n  "SOME_CUSTOM_HTTP_HEADER": "SOME_VALUE",\n  "SOME_OTHER_CUSTOM_HTTP_HEADER": "SOME_OTHER_VALUE"\n}'),
      {
        name: 'bodyTemplate',
        displayName: 'Body template',
        placeholder: '{\n  "event": "{{event.type}}",\n  "eventType": "unleash",\n  "createdBy": "{{event.createdBy}}",\n  "featureToggle": "{{event.featureName}}",\n  "timestamp": "{{event.createdAt}}"\n}',
        description: '(Optional) Listed as Unleash lists it; Unleash\'s New Relic integration sends the event\'s fields whatever it says, and so does this one.',
        required: false,
        sensitive: false,
        type: 'textfield',
      },
    ],
    events: [...FEATURE_EVENTS, 'feature-project-change', 'feature-environment-variants-updated', 'feature-potentially-stale-on'],
    tagTypes: [{ name: 'new-relic', description: 'Feature tags of this type are meant for New Relic.', icon: 'D' }],
  },
  {
    name: 'amazon-eventbridge',
    displayName: 'Amazon EventBridge',
    description: "Puts each chosen event on the service's Amazon EventBridge bus in its own AWS account.",
    documentationUrl: 'https://docs.aws.amazon.com/eventbridge/latest/userguide/eb-what-is.html',
    howTo: 'Each event is put on the stack\'s event bus (its output EventBusName) with source serverless-toggles and the event type as its detail-type; '
      + 'rules on that bus route them to any target AWS offers.',
    parameters: [
      { name: 'detailTypePrefix', displayName: 'Detail type prefix', placeholder: '', description: '(Optional) Put before each event type in the detail-type, e.g. "prod:".', type: 'text', required: false, sensitive: false },
    ],
    events: [
      ...FEATURE_EVENTS, 'feature-deleted', 'feature-environment-variants-updated', 'feature-project-change', 'feature-tagged',
      'feature-untagged', 'addon-config-created', 'addon-config-updated', 'addon-config-deleted', 'project-created', 'project-updated',
      'project-deleted', 'user-created', 'user-updated', 'user-deleted', 'group-created', 'group-updated', 'group-deleted',
    ],
  },
];

export function providerNamed(name: string): ProviderDefinition | undefined {
  return PROVIDERS.find((provider) => provider.name === name);
}

export function sensitiveParameters(provider: ProviderDefinition): Set<string> {
  return new Set(provider.parameters.filter((parameter) => parameter.sensitive).map((parameter) => parameter.name));
}
