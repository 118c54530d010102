import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { AdminApi, adminSignIn, ApiFailure } from './api.js';
import { Notice, TextField } from './components.js';
import { AccountPage } from './pages/account.js';
import { AuditPage } from './pages/audit.js';
import { DataPage } from './pages/data.js';
import { DocsPage } from './pages/docs.js';
import { ProviderPage } from './pages/provider.js';
import { RolesPage } from './pages/roles.js';
import { TokensPage } from './pages/tokens.js';
import { UsersPage } from './pages/users.js';
import { go } from './shell.js';
import './styles.css';

/** The admin session lives in this tab's sessionStorage only: gone when the tab closes, never in a cookie. */
const SESSION_KEY = 'tessera.admin';

interface Session {
  token: string;
  username: string;
  role: string;
}

function readSession(): Session | undefined {
  try {
    const raw = sessionStorage.getItem(SESSION_KEY);
    return raw ? (JSON.parse(raw) as Session) : undefined;
  } catch {
    return undefined;
  }
}

const PAGES = [
  { path: 'users', title: 'Users' },
  { path: 'tokens', title: 'Auth tokens' },
  { path: 'roles', title: 'Roles' },
  { path: 'data', title: 'Data' },
  { path: 'audit', title: 'Audit' },
  { path: 'provider', title: 'Provider' },
  { path: 'docs', title: 'API docs' },
  { path: 'account', title: 'My account' },
] as const;

type PagePath = (typeof PAGES)[number]['path'];

function currentPage(): PagePath {
  const segment = location.pathname.replace(/^\/admin\/?/, '').split('/')[0] ?? '';
  return PAGES.find((page) => page.path === segment)?.path ?? 'users';
}

function SignIn(props: { onSignedIn: (session: Session) => void }) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  return (
    <main class="sign-in">
      <h1>Tessera console</h1>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setBusy(true);
          setError(undefined);
          adminSignIn(username, password).then(
            (answer) => props.onSignedIn({ token: answer.apikey, username, role: answer.role }),
            (failure: unknown) => {
              setBusy(false);
              setError(failure instanceof ApiFailure ? failure.message : String(failure));
            },
          );
        }}
      >
        <p>Sign in with an admin account (not an API user).</p>
        <TextField label="Admin user name" name="username" value={username} onInput={setUsername} autocomplete="username" required />
        <TextField
          label="Password"
          name="password"
          type="password"
          value={password}
          onInput={setPassword}
          autocomplete="current-password"
          required
        />
        {error && <Notice kind="error">{error}</Notice>}
        <button type="submit" disabled={busy}>
          Sign in
        </button>
      </form>
    </main>
  );
}

function App() {
  const [session, setSession] = useState(readSession);
  const [page, setPage] = useState(currentPage);
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => {
    const onPop = () => {
      setPage(currentPage());
      setMenuOpen(false);
    };
    addEventListener('popstate', onPop);
    return () => removeEventListener('popstate', onPop);
  }, []);
  useEffect(() => {
    document.title = `${PAGES.find((p) => p.path === page)?.title ?? ''} - Tessera console`;
  }, [page]);

  if (!session) {
    return (
      <SignIn
        onSignedIn={(signedIn) => {
          sessionStorage.setItem(SESSION_KEY, JSON.stringify(signedIn));
          setSession(signedIn);
        }}
      />
    );
  }
  const api = new AdminApi(session.token);
  const signOut = () => {
    sessionStorage.clear();
    setSession(undefined);
  };
  /** Any admin call answering 401: the token ended (expired, password changed elsewhere); back to the sign-in. */
  const onUnauthorized = (failure: unknown) => {
    if (failure instanceof ApiFailure && failure.status === 401) signOut();
  };
  return (
    <div class="layout">
      <header class="top">
        <a
          class="brand"
          href="/admin/users"
          onClick={(e) => {
            e.preventDefault();
            go('users');
          }}
        >
          Tessera
        </a>
        <button type="button" class="menu-toggle" aria-expanded={menuOpen} aria-controls="nav" onClick={() => setMenuOpen(!menuOpen)}>
          Menu
        </button>
        <span class="who">
          {session.username} ({session.role})
        </span>
        <button type="button" class="secondary" onClick={signOut}>
          Sign out
        </button>
      </header>
      <nav id="nav" class={menuOpen ? 'side open' : 'side'} aria-label="Console">
        <ul>
          {PAGES.map((p) => (
            <li key={p.path}>
              <a
                href={`/admin/${p.path}`}
                aria-current={p.path === page ? 'page' : undefined}
                onClick={(event) => {
                  event.preventDefault();
                  go(p.path);
                }}
              >
                {p.title}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main class="content" id="main">
        {page === 'users' && <UsersPage api={api} onUnauthorized={onUnauthorized} />}
        {page === 'tokens' && <TokensPage api={api} onUnauthorized={onUnauthorized} />}
        {page === 'roles' && <RolesPage api={api} onUnauthorized={onUnauthorized} />}
        {page === 'data' && <DataPage api={api} onUnauthorized={onUnauthorized} />}
        {page === 'audit' && <AuditPage api={api} onUnauthorized={onUnauthorized} />}
        {page === 'provider' && <ProviderPage api={api} onUnauthorized={onUnauthorized} />}
        {page === 'docs' && <DocsPage api={api} onUnauthorized={onUnauthorized} />}
        {page === 'account' && <AccountPage api={api} onUnauthorized={onUnauthorized} />}
      </main>
    </div>
  );
}

const root = document.getElementById('app');
if (root) render(<App />, root);
