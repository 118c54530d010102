/** What one request answered: its status and JSON body, or status 0 when no answer came (transport error). */
export interface Answer {
  status: number;
  body: Record<string, unknown> & { errorCode?: number };
}

const B = '/rest/default/demo/v1';

/**
 * A client of one running Tessera instance, logged in as one user, by plain fetch (the instances
 * are separate processes). `port` may be a function, read at every request, for an instance that
 * is restarted on another port.
 */
export class InstanceClient {
  private apikey = '';

  constructor(
    readonly name: string,
    private readonly port: number | (() => number),
  ) {}

  async login(username: string, password: string): Promise<void> {
    const res = await this.send('POST', '/@authentication', { username, password }, false);
    if (res.status !== 200) throw new Error(`login on ${this.name} answered ${res.status}: ${JSON.stringify(res.body)}`);
    this.apikey = String(res.body.apikey);
  }

  get = (path: string) => this.send('GET', path);
  post = (path: string, body: unknown) => this.send('POST', path, body);
  put = (path: string, body: unknown) => this.send('PUT', path, body);
  delete = (path: string) => this.send('DELETE', path);

  private async send(method: string, path: string, body?: unknown, auth = true): Promise<Answer> {
    const headers: Record<string, string> = {};
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (auth) headers.Authorization = `CALiveAPICreator ${this.apikey}:1`;
    try {
      const res = await fetch(`http://127.0.0.1:${typeof this.port === 'number' ? this.port : this.port()}${B}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(60_000),
      });
      const text = await res.text();
      let parsed: unknown;
      try {
        parsed = text === '' ? {} : JSON.parse(text);
      } catch {
        parsed = { text };
      }
      return { status: res.status, body: (Array.isArray(parsed) ? { rows: parsed } : parsed) as Answer['body'] };
    } catch (error) {
      return { status: 0, body: { error: String(error) } };
    }
  }
}
