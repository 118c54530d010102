import type { AdminApi } from './api.js';

/** The signed-in admin account: its name, and its role (`admin` or `auditor`) as the admin API last said. */
export interface Signed {
  username: string;
  role: string;
}

/**
 * What every page gets: the admin API of the signed-in account, what to do when its token has ended, who is signed
 * in, and `onAccountChanged` for a page that changed that account (its role): the console reads it again.
 */
export interface PageProps {
  api: AdminApi;
  onUnauthorized: (failure: unknown) => void;
  signed: Signed;
  onAccountChanged: () => void;
}

/** Moves to another page of the console (the address bar follows, so a reload or a shared link opens it again). */
export function go(path: string): void {
  history.pushState(null, '', `/admin/${path}`);
  dispatchEvent(new PopStateEvent('popstate'));
}

/** The served API versions' base paths, which the server writes into index.html. */
export function apiBases(): string[] {
  const content = document.querySelector('meta[name="tessera-api-bases"]')?.getAttribute('content') ?? '';
  return content.split(' ').filter((base) => base.startsWith('/'));
}
