import { GROUP_HEADINGS, HEADING_ORDER } from '../../lib/docs/group-headings.js';
import { operationIds, routeTable } from '../../lib/route-table.js';
import type { Access, RouteSpec } from '../../lib/http/route.js';

/** The README's endpoint map sits between these lines; everything between them is generated. */
export const BEGIN = '<!-- endpoints:begin: generated from the route table by `npm run docs:endpoints`; do not edit -->';
export const END = '<!-- endpoints:end -->';

const TOKEN: Record<Access['kind'], string> = { public: 'none', 'any-token': 'any', sdk: 'client', frontend: 'frontend', ofrep: 'frontend or client', admin: 'admin' };

/** One table per endpoint group, in the order and under the headings Swagger UI shows. */
export function renderEndpointMap(): string {
  const rows = operationIds.map((id): RouteSpec => routeTable[id]).filter((spec) => !spec.internal);
  const sections = HEADING_ORDER.flatMap((group) => {
    const ofGroup = rows.filter((spec) => spec.group === group);
    if (ofGroup.length === 0) return [];
    const { name, description } = GROUP_HEADINGS[group];
    return [
      [
        `**${name}**: ${description}`,
        '',
        '| method | path | token | what |',
        '|---|---|---|---|',
        ...ofGroup.map(
          (spec) =>
            `| ${spec.method} | \`${spec.path}\` | ${TOKEN[spec.access.kind]} | ` +
            `${escapeCell(spec.summary)}${spec.deprecated && !/deprecated/i.test(spec.summary) ? ' (deprecated)' : ''} |`,
        ),
      ].join('\n'),
    ];
  });
  return [BEGIN, sections.join('\n\n'), END].join('\n');
}

/** The README with its endpoint map replaced; fails loudly when the markers are missing. */
export function withEndpointMap(readme: string): string {
  const start = readme.indexOf(BEGIN);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) throw new Error(`README.md needs the lines\n${BEGIN}\n${END}`);
  return readme.slice(0, start) + renderEndpointMap() + readme.slice(end + END.length);
}

function escapeCell(text: string): string {
  return text.replace(/\|/g, '\\|');
}
