/**
 * Swagger UI's start for `<base>/@docs/ui` (a file, not an inline script: the page's Content-Security-Policy allows
 * only scripts from Tessera itself). It loads the API's `@docs` document next to the page, with the API token the
 * console's Data page keeps in this tab (same origin), or one pasted here when `@docs` asks for a token; the token is
 * also pre-authorised for "Try it out" through the document's CALiveAPICreator API key scheme.
 */
interface SwaggerUi {
  preauthorizeApiKey(scheme: string, value: string): void;
}
declare const SwaggerUIBundle: (options: Record<string, unknown>) => SwaggerUi;

const TOKEN_KEY = 'tessera.dataToken';
const SCHEME = 'CALiveAPICreator';
const docsUrl = location.pathname.replace(/\/ui$/, '');

function headerOf(token: string): string {
  return `${SCHEME} ${token}:1`;
}

function askForToken(reason: string): void {
  const form = document.createElement('form');
  form.className = 'tessera-token';
  const text = document.createElement('p');
  text.textContent = `${reason} Paste an API token (from @authentication or the console's Auth tokens page):`;
  const label = document.createElement('label');
  label.textContent = 'API token ';
  const input = document.createElement('input');
  input.type = 'password';
  input.name = 'token';
  label.append(input);
  const button = document.createElement('button');
  button.type = 'submit';
  button.textContent = 'Load the API docs';
  form.append(text, label, button);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    sessionStorage.setItem(TOKEN_KEY, input.value.trim());
    form.remove();
    void start();
  });
  document.body.prepend(form);
  input.focus();
}

async function start(): Promise<void> {
  const token = sessionStorage.getItem(TOKEN_KEY) ?? '';
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (token) headers.Authorization = headerOf(token);
  const response = await fetch(docsUrl, { headers, credentials: 'omit' });
  if (response.status === 401 || response.status === 403) {
    askForToken(token ? 'The saved API token was refused.' : 'This API shows its documentation to API tokens only.');
    return;
  }
  const spec: unknown = await response.json();
  const ui = SwaggerUIBundle({
    spec,
    dom_id: '#swagger-ui',
    deepLinking: true,
    persistAuthorization: false,
    tryItOutEnabled: false,
  });
  if (token) ui.preauthorizeApiKey(SCHEME, headerOf(token));
}

void start();
