/**
 * The admin API with an admin token, as a script would call it: how the walk checks that what it
 * did in the browser took effect (read back from the service, not from the page that did it).
 */
export class AdminApi {
  constructor(
    readonly url: string,
    readonly token: string,
  ) {}

  async call(method: string, path: string, body?: unknown, token = this.token): Promise<{ status: number; body: any }> {
    const res = await fetch(`${this.url}${path}`, {
      method,
      headers: { Authorization: token, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // Not JSON: the text itself is the answer.
    }
    return { status: res.status, body: parsed };
  }

  /** A read that must succeed: anything else throws with the request and the answer. */
  async get(path: string, token = this.token): Promise<any> {
    const { status, body } = await this.call('GET', path, undefined, token);
    if (status !== 200) throw new Error(`GET ${path} answered ${status} ${JSON.stringify(body).slice(0, 300)}`);
    return body;
  }

  /** A change that must succeed (any 2xx). */
  async send(method: string, path: string, body?: unknown): Promise<any> {
    const answer = await this.call(method, path, body);
    if (answer.status >= 300) throw new Error(`${method} ${path} answered ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`);
    return answer.body;
  }
}
