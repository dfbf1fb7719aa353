import type { BrowserContext, Request, Route } from 'playwright-core';

/** A failing answer the UI is known to get, and to live with, from Unleash as well. */
export interface ExpectedFailure {
  method: string;
  /** Matched against the request's path (no query). */
  path: RegExp;
  status: number;
  /** Matched against the answer's body, when given. */
  body?: RegExp;
  /** Why the UI calls it and why Unleash answers so: an entry without one does not belong here. */
  reason: string;
}

/** A host outside the service that the UI's page loads from the internet, answered locally. */
export interface StubbedHost {
  host: string;
  /** What the test answers instead (the machine running the tests may have no internet). */
  answer: Parameters<Route['fulfill']>[0];
  reason: string;
}

/**
 * Everything that goes wrong in the browser contexts of a UI test: console errors, uncaught page
 * errors, failed requests and error answers from the service, and requests leaving for hosts not
 * stubbed. A 401 to a GET of the admin API sent before the context signed in is expected: the UI
 * asks who is logged in, and the answer names the login form, which the app then shows.
 */
export class BrowserFaults {
  private readonly faults: string[] = [];
  /** Error answers, judged once their body is read: a fault with the start of its body, or undefined. */
  private readonly answers: Array<Promise<string | undefined>> = [];

  constructor(
    private readonly origins: string[],
    private readonly expected: ExpectedFailure[],
    private readonly stubbed: StubbedHost[],
  ) {}

  /** Watches a context (every page it opens); call `signedIn()` once its login has succeeded. */
  async watch(context: BrowserContext, who: string): Promise<{ signedIn: () => void }> {
    let signedIn = false;
    // Judged by when a request left, not when its answer came: a slow 401 may land after the login.
    const anonymous = new WeakSet<Request>();
    context.on('request', (request) => {
      if (!signedIn) anonymous.add(request);
    });
    const own = (url: string) => this.origins.some((origin) => url.startsWith(`${origin}/`));
    await context.route((url) => !own(url.href), async (route) => {
      const host = new URL(route.request().url()).host;
      const stub = this.stubbed.find((entry) => entry.host === host);
      if (stub) return route.fulfill(stub.answer);
      this.faults.push(`${who}: a request left for ${route.request().url()}`);
      return route.abort('blockedbyclient');
    });
    context.on('response', (response) => {
      const request = response.request();
      const status = response.status();
      if (status < 400 || !own(response.url())) return;
      const path = new URL(response.url()).pathname;
      if (anonymous.has(request) && status === 401 && request.method() === 'GET' && path.startsWith('/api/admin/')) return;
      this.answers.push(response.text().catch(() => '').then((body) => {
        const known = this.expected.some((entry) =>
          entry.method === request.method() && entry.status === status && entry.path.test(path) && (entry.body?.test(body) ?? true));
        return known ? undefined : `${who}: ${request.method()} ${path} answered ${status} ${body.slice(0, 300)}`;
      }));
    });
    context.on('requestfailed', (request) => {
      const error = request.failure()?.errorText ?? 'unknown';
      // The page or a navigation cancelled it (an answer, if one came, was judged by its status);
      // a blocked external request is already recorded above.
      if (error === 'net::ERR_ABORTED' || error === 'net::ERR_BLOCKED_BY_CLIENT') return;
      this.faults.push(`${who}: ${request.method()} ${request.url()} failed: ${error}`);
    });
    context.on('console', (message) => {
      // Chromium logs every error answer as "Failed to load resource": judged above by its URL.
      if (message.type() !== 'error' || message.text().startsWith('Failed to load resource')) return;
      this.faults.push(`${who}: console error: ${message.text()}`);
    });
    context.on('weberror', (error) => this.faults.push(`${who}: page error: ${error.error().message}`));
    return { signedIn: () => (signedIn = true) };
  }

  /** The faults recorded since the last call. */
  async take(): Promise<string[]> {
    const answers = await Promise.all(this.answers.splice(0));
    return [...this.faults.splice(0), ...answers.filter((fault) => fault !== undefined)];
  }
}
