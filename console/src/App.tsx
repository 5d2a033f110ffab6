import { useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { ViewerQuery } from './ops';
import { SignOut } from './ops';
import { restartSubscriptions } from './client';
import { isAuthError, problemsOf } from './problems';
import { Link, useLocation } from './router';
import { FormErrors, Loading } from './ui';
import { SignInScreen } from './screens/SignIn';
import { Home } from './screens/Home';
import { Processor } from './screens/Processor';
import { Listings } from './screens/Listings';
import { ListingScreen } from './screens/Listing';
import { Orders } from './screens/Orders';
import { OrderScreen } from './screens/Order';
import { CustomerScreen, Customers } from './screens/Customers';
import { MembershipScreen, Memberships } from './screens/Memberships';
import { DiscountScreen, Discounts } from './screens/Discounts';
import { LicenseKeyScreen, LicenseKeys } from './screens/LicenseKeys';
import { Webhooks } from './screens/Webhooks';
import { Agents } from './screens/Agents';
import { Events } from './screens/Events';
import { ApiKeys } from './screens/ApiKeys';
import { Requests } from './screens/Requests';
import { Settings } from './screens/Settings';
import { Billing } from './screens/Billing';

const nav: { to: string; label: string }[] = [
  { to: '/', label: 'Home' },
  { to: '/processor', label: 'Processor' },
  { to: '/listings', label: 'Listings' },
  { to: '/discounts', label: 'Discounts' },
  { to: '/license-keys', label: 'License keys' },
  { to: '/orders', label: 'Orders' },
  { to: '/memberships', label: 'Memberships' },
  { to: '/customers', label: 'Customers' },
  { to: '/webhooks', label: 'Webhooks' },
  { to: '/agents', label: 'Agents' },
  { to: '/events', label: 'Events' },
  { to: '/api-keys', label: 'API keys' },
  { to: '/requests', label: 'Requests' },
  { to: '/settings', label: 'Settings' },
];

function route(path: string) {
  let m: RegExpMatchArray | null;
  if (path === '/') return <Home />;
  if (path === '/processor') return <Processor />;
  if (path === '/listings') return <Listings />;
  if (path === '/listings/new') return <ListingScreen id={null} />;
  if ((m = path.match(/^\/listings\/([^/]+)$/))) return <ListingScreen id={decodeURIComponent(m[1])} />;
  if (path === '/discounts') return <Discounts />;
  if (path === '/discounts/new') return <DiscountScreen id={null} />;
  if ((m = path.match(/^\/discounts\/([^/]+)$/))) return <DiscountScreen id={decodeURIComponent(m[1])} />;
  if (path === '/license-keys') return <LicenseKeys />;
  if ((m = path.match(/^\/license-keys\/([^/]+)$/))) return <LicenseKeyScreen id={decodeURIComponent(m[1])} />;
  if (path === '/orders') return <Orders />;
  if ((m = path.match(/^\/orders\/([^/]+)$/))) return <OrderScreen id={decodeURIComponent(m[1])} />;
  if (path === '/memberships') return <Memberships />;
  if ((m = path.match(/^\/memberships\/([^/]+)$/))) return <MembershipScreen id={decodeURIComponent(m[1])} />;
  if (path === '/customers') return <Customers />;
  if ((m = path.match(/^\/customers\/([^/]+)$/))) return <CustomerScreen id={decodeURIComponent(m[1])} />;
  if (path === '/webhooks') return <Webhooks />;
  if (path === '/agents') return <Agents />;
  if (path === '/events') return <Events />;
  if (path === '/api-keys') return <ApiKeys />;
  if (path === '/requests') return <Requests />;
  if (path === '/settings') return <Settings />;
  if (path === '/settings/billing') return <Billing />;
  return (
    <>
      <h1>Not found</h1>
      <p>
        There is no console page at this address. <Link to="/">Go to the home screen</Link>.
      </p>
    </>
  );
}

function active(current: string, to: string): boolean {
  return to === '/' ? current === '/' : current === to || current.startsWith(to + '/');
}

export function App() {
  const [{ data, fetching, error }, refetch] = useQuery({ query: ViewerQuery, requestPolicy: 'network-only' });
  const [, signOut] = useMutation(SignOut);
  const { path } = useLocation();
  const [menu, setMenu] = useState(false);

  if (fetching && !data) return <main className="center"><Loading what="Loading the console" /></main>;
  const viewer = data?.viewer;
  if (!viewer) {
    if (error && !isAuthError(error)) {
      return (
        <main className="center">
          <FormErrors problems={problemsOf(error)} />
          <button type="button" onClick={() => refetch({ requestPolicy: 'network-only' })}>Try again</button>
        </main>
      );
    }
    return (
      <SignInScreen
        onSignedIn={() => {
          restartSubscriptions();
          refetch({ requestPolicy: 'network-only' });
        }}
      />
    );
  }

  async function doSignOut() {
    await signOut({});
    restartSubscriptions();
    window.location.assign('/console/');
  }

  return (
    <div className="shell">
      <a className="skip" href="#main">Skip to content</a>
      <header className="top">
        <Link to="/" className="brand">Commerce console</Link>
        <button
          type="button"
          className="menu-toggle secondary"
          aria-expanded={menu}
          aria-controls="nav"
          onClick={() => setMenu(!menu)}
        >
          Menu
        </button>
        <span className="who" title={viewer.email}>{viewer.displayName || viewer.email}</span>
        <button type="button" className="secondary" onClick={doSignOut}>Sign out</button>
      </header>
      <nav id="nav" className={menu ? 'nav open' : 'nav'} aria-label="Console">
        <ul>
          {nav.map((n) => (
            <li key={n.to}>
              <Link to={n.to} aria-current={active(path, n.to) ? 'page' : undefined} onClick={() => setMenu(false)}>
                {n.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" tabIndex={-1}>{route(path)}</main>
    </div>
  );
}
