/**
 * `npm run migrate -- --from <url> --from-token <admin token> --to <url> --to-token <admin token>`
 * [--dry-run] [--prune] [--verify-only] [--report <file.json>]: copies an Unleash (or this
 * service) into another through both admin APIs and verifies what SDKs get (local/migrate/).
 * The tokens may come from MIGRATE_FROM_TOKEN and MIGRATE_TO_TOKEN instead, out of the shell's
 * history. Exit code 0 when everything was copied and verified, 1 otherwise, 2 on bad usage.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { formatReport } from '../local/migrate/report.js';
import { migrate } from '../local/migrate/run.js';

const USAGE = 'usage: npm run migrate -- --from <url> --from-token <admin token> --to <url> --to-token <admin token> [--dry-run] [--prune] [--verify-only] [--report <file.json>]';

let values;
try {
  ({ values } = parseArgs({
    options: {
      from: { type: 'string' },
      'from-token': { type: 'string' },
      to: { type: 'string' },
      'to-token': { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
      prune: { type: 'boolean', default: false },
      'verify-only': { type: 'boolean', default: false },
      report: { type: 'string' },
    },
    strict: true,
  }));
} catch (error) {
  console.error(`${(error as Error).message}\n${USAGE}`);
  process.exit(2);
}

const fromToken = values['from-token'] ?? process.env.MIGRATE_FROM_TOKEN;
const toToken = values['to-token'] ?? process.env.MIGRATE_TO_TOKEN;
if (!values.from || !values.to || !fromToken || !toToken) {
  console.error(USAGE);
  process.exit(2);
}

const report = await migrate({
  from: values.from,
  fromToken,
  to: values.to,
  toToken,
  dryRun: values['dry-run'],
  prune: values.prune,
  verifyOnly: values['verify-only'],
  terminal: process.stderr.isTTY === true,
});
process.stdout.write(formatReport(report, values.from, values.to));
if (values.report) writeFileSync(values.report, `${JSON.stringify(report, null, 2)}\n`);
process.exit(report.ok ? 0 : 1);
