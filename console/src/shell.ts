import type { AdminApi } from './api.js';

/** What every page gets: the admin API of the signed-in account, and what to do when its token has ended. */
export interface PageProps {
  api: AdminApi;
  onUnauthorized: (failure: unknown) => void;
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
