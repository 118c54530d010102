import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { AdminApi, adminSignIn, ApiFailure } from './api.js';
import { Form, Notice, TextField } from './components.js';
import { AccountPage } from './pages/account.js';
import { AdminsPage } from './pages/admins.js';
import { AuditPage } from './pages/audit.js';
import { DataPage } from './pages/data.js';
import { DocsPage } from './pages/docs.js';
import { ExtensionsPage } from './pages/extensions.js';
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

/** The console's pages; `adminOnly` ones are neither listed nor opened for an auditor (the admin API would refuse their changes anyway). */
const PAGES = [
  { path: 'users', title: 'Users', Page: UsersPage },
  { path: 'tokens', title: 'Auth tokens', Page: TokensPage },
  { path: 'roles', title: 'Roles', Page: RolesPage },
  { path: 'data', title: 'Data', Page: DataPage },
  { path: 'extensions', title: 'Extensions', Page: ExtensionsPage },
  { path: 'audit', title: 'Audit', Page: AuditPage },
  { path: 'provider', title: 'Provider', Page: ProviderPage },
  { path: 'admins', title: 'Admin accounts', Page: AdminsPage, adminOnly: true },
  { path: 'docs', title: 'API docs', Page: DocsPage },
  { path: 'account', title: 'My account', Page: AccountPage },
] as const;

type PagePath = (typeof PAGES)[number]['path'];

function pagesFor(role: string) {
  return PAGES.filter((page) => !('adminOnly' in page) || role === 'admin');
}

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
      <Form
        onSubmit={() => {
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
        <TextField label="Password" name="password" type="current-password" value={password} onInput={setPassword} required />
        {error && <Notice kind="error">{error}</Notice>}
        <button type="submit" disabled={busy}>
          Sign in
        </button>
      </Form>
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
  /** The page shown: the one the address names, unless the account's role may not open it (then the first). */
  const shown = (pagesFor(session?.role ?? '').find((p) => p.path === page) ?? PAGES[0]).path;
  useEffect(() => {
    document.title = `${PAGES.find((p) => p.path === shown)?.title ?? ''} - Tessera console`;
  }, [shown]);
  const [accountReads, setAccountReads] = useState(0);
  // The account's role as it is now (another admin may have changed it since the sign-in), at every page.
  useEffect(() => {
    if (!session) return;
    new AdminApi(session.token).get<{ username: string; role: string }>('/@me').then(
      (me) => {
        if (me.role === session.role) return;
        const changed = { ...session, role: me.role };
        sessionStorage.setItem(SESSION_KEY, JSON.stringify(changed));
        setSession(changed);
      },
      (failure: unknown) => {
        if (failure instanceof ApiFailure && failure.status === 401) {
          sessionStorage.clear();
          setSession(undefined);
        }
      },
    );
  }, [page, session?.token, accountReads]);

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
  const pages = pagesFor(session.role);
  const Current = (pages.find((p) => p.path === shown) ?? PAGES[0]).Page;
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
          {pages.map((p) => (
            <li key={p.path}>
              <a
                href={`/admin/${p.path}`}
                aria-current={p.path === shown ? 'page' : undefined}
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
        <Current
          key={shown}
          api={api}
          onUnauthorized={onUnauthorized}
          signed={{ username: session.username, role: session.role }}
          onAccountChanged={() => setAccountReads((count) => count + 1)}
        />
      </main>
    </div>
  );
}

const root = document.getElementById('app');
if (root) render(<App />, root);
