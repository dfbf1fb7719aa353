import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * What a step of the walk found: the page and its action work, the open-source UI keeps them for
 * Unleash Enterprise (shown by the page itself, not assumed), or they fail, with why.
 */
export type Outcome = 'works' | 'gated' | 'fails';

export interface WalkEntry {
  page: string;
  action: string;
  outcome: Outcome;
  /** Why a step failed (the error, the faults the browser saw), or what shows a gated page is gated. */
  detail: string;
}

/** The walk's table of pages and actions, printed and written once the walk has run. */
export class WalkLog {
  private readonly entries: WalkEntry[] = [];

  record(entry: WalkEntry): void {
    this.entries.push(entry);
  }

  counts(): Record<Outcome, number> {
    const counts: Record<Outcome, number> = { works: 0, gated: 0, fails: 0 };
    for (const entry of this.entries) counts[entry.outcome] += 1;
    return counts;
  }

  /** A Markdown table; gated steps are listed apart and left out of the counted total. */
  markdown(title: string): string {
    const { works, gated, fails } = this.counts();
    const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim().slice(0, 600);
    const rows = (outcomes: Outcome[]) => this.entries
      .filter((entry) => outcomes.includes(entry.outcome))
      .map((entry) => `| ${cell(entry.page)} | ${cell(entry.action)} | ${entry.outcome} | ${cell(entry.detail)} |`);
    return [
      `# ${title}`,
      '',
      `${works + fails} pages and actions counted: ${works} work, ${fails} fail. ${gated} more are gated by the open-source UI behind Unleash Enterprise (not counted).`,
      '',
      '| Page | Action | Outcome | Detail |',
      '|---|---|---|---|',
      ...rows(['works', 'fails']),
      '',
      '## Gated by the open-source UI (Unleash Enterprise)',
      '',
      '| Page | Action | Outcome | What the page shows |',
      '|---|---|---|---|',
      ...rows(['gated']),
      '',
    ].join('\n');
  }

  write(file: string, title: string): string {
    const text = this.markdown(title);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
    return text;
  }
}
