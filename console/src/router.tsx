// A small history router for the console's routes under /console/.
import { useSyncExternalStore, type AnchorHTMLAttributes, type MouseEvent } from 'react';

export const base = '/console';

function subscribe(cb: () => void): () => void {
  window.addEventListener('popstate', cb);
  window.addEventListener('console:navigate', cb);
  return () => {
    window.removeEventListener('popstate', cb);
    window.removeEventListener('console:navigate', cb);
  };
}

function snapshot(): string {
  return window.location.pathname + window.location.search;
}

/** The current location inside the console: path without /console, and the query. */
export function useLocation(): { path: string; query: URLSearchParams } {
  const full = useSyncExternalStore(subscribe, snapshot);
  const [p, q = ''] = full.split('?');
  let path = p.startsWith(base) ? p.slice(base.length) : p;
  if (path === '') path = '/';
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  return { path, query: new URLSearchParams(q) };
}

export function href(to: string): string {
  return base + (to === '/' ? '/' : to);
}

export function navigate(to: string, replace = false): void {
  const url = href(to);
  if (replace) window.history.replaceState(null, '', url);
  else window.history.pushState(null, '', url);
  window.dispatchEvent(new Event('console:navigate'));
  window.scrollTo(0, 0);
}

type LinkProps = AnchorHTMLAttributes<HTMLAnchorElement> & { to: string };

export function Link({ to, onClick, ...rest }: LinkProps) {
  function click(e: MouseEvent<HTMLAnchorElement>) {
    onClick?.(e);
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(to);
  }
  return <a href={href(to)} onClick={click} {...rest} />;
}
