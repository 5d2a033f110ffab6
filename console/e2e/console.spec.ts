// The seller's journey through the console in a real browser, against the
// running service with the sandbox processor: sign up by email passcode
// (the key shown once), the readiness checklist to a connected processor,
// a webhook endpoint, a listing with an uploaded file, published; a buyer in
// a second browser context buys it; the order arrives in the live feed; the
// webhook's delivery log; refund; an upgrade to Growth through the
// sandbox subscription page; a key revoked. Every screen is checked
// with axe-core and photographed at desktop width and 375 px.
import { test, expect, type BrowserContext, type Page } from '@playwright/test';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expectAccessible, passcodeFor, screenshots } from './helpers';

test.describe.configure({ mode: 'serial' });

const email = `seller-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
let context: BrowserContext;
let page: Page;
let apiKey = '';
let listingId = '';
let productUrl = '';
let orderId = '';
const foreign: string[] = [];
const consoleErrors: string[] = [];
// A 1×1 PNG.
const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

// A local webhook receiver (the service runs with ALLOW_PRIVATE_TARGETS).
let receiver: Server;
const received: string[] = [];

test.beforeAll(async ({ browser, baseURL }) => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push(body);
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  context = await browser.newContext({ baseURL });
  page = await context.newPage();
  const origin = new URL(baseURL!).host;
  page.on('request', (r) => {
    const u = new URL(r.url());
    if ((u.protocol === 'http:' || u.protocol === 'https:' || u.protocol === 'ws:' || u.protocol === 'wss:') && u.host !== origin) {
      foreign.push(r.url());
    }
  });
  page.on('dialog', (d) => d.accept());
  // The console's own pages (the service's HTML pages are not under test here).
  page.on('console', (m) => {
    if (m.type() === 'error' && new URL(page.url()).pathname.startsWith('/console')) {
      consoleErrors.push(`${page.url()}: ${m.text()}`);
    }
  });
  page.on('pageerror', (e) => consoleErrors.push(`${page.url()}: ${e.message}`));
});

test.afterAll(async () => {
  await context?.close();
  await new Promise((r) => receiver?.close(r));
});

test('sign up by email passcode and see the API key once', async ({ request }) => {
  await page.goto('/console/');
  await expect(page.getByRole('heading', { name: 'Sign in or create an account' })).toBeVisible();
  const emailField = page.getByLabel('Email');
  await expect(emailField).toHaveAttribute('type', 'email');
  await expect(emailField).toHaveAttribute('autocomplete', 'email');
  await expectAccessible(page, 'sign-in');
  await screenshots(page, 'sign-in');

  // A refused email shows its message next to the field.
  await emailField.fill('someone@mailinator.com');
  await page.getByRole('button', { name: 'Email me a passcode' }).click();
  await expect(emailField).toHaveAttribute('aria-invalid', 'true');
  await expect(page.locator('.field', { has: emailField }).locator('.error')).not.toBeEmpty();

  await emailField.fill(email);
  await page.getByRole('button', { name: 'Email me a passcode' }).click();
  const passcode = page.getByLabel('Passcode');
  await expect(passcode).toHaveAttribute('autocomplete', 'one-time-code');
  await expectAccessible(page, 'passcode');
  await passcode.fill(await passcodeFor(request, email));
  await page.getByRole('button', { name: 'Continue' }).click();

  await page.getByLabel('Store name').fill('Playwright Prints');
  await expectAccessible(page, 'create-store');
  await page.getByRole('button', { name: 'Create store' }).click();
  const secret = page.getByTestId('secret');
  await expect(secret).toHaveText(/^svc_[A-Za-z0-9]+$/);
  apiKey = (await secret.textContent())!;
  await expect(page.getByRole('button', { name: 'Copy' })).toBeVisible();
  await screenshots(page, 'sign-up-key');
  await page.getByRole('button', { name: 'I stored my key, continue' }).click();

  await expect(page.getByRole('heading', { name: 'Home' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Home' })).toBeVisible();
  await expect(page.locator('body')).not.toContainText(apiKey);
  await page.goto('/console/api-keys');
  await expect(page.getByRole('cell', { name: `${apiKey.slice(0, 12)}…` })).toBeVisible();
  await expect(page.locator('body')).not.toContainText(apiKey);
});

test('follow the readiness checklist to a connected processor', async () => {
  await page.goto('/console/');
  const connect = page.locator('.checklist li', { hasText: 'required' }).getByRole('button', { name: 'Connect the processor' });
  await expect(connect).toBeVisible();
  await expectAccessible(page, 'home');
  await connect.click();
  await expect(page.getByRole('heading', { name: 'Connect the sandbox processor' })).toBeVisible();
  await page.getByRole('button', { name: 'Complete onboarding' }).click();
  // Onboarding returns to the console's processor page (CONTRACT §11).
  await expect(page).toHaveURL(/\/console\/processor$/);
  await expect(page.getByText('Processor connected: onboarding is complete.')).toBeVisible();
  await expect(page.locator('.facts')).toContainText('connected');
  await expect(page.locator('.facts')).toContainText('USD');
  await expectAccessible(page, 'processor');
  await screenshots(page, 'processor');
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Home' }).click();
  await expect(page.getByRole('heading', { name: 'Home' })).toBeVisible();
  await expect(page.locator('.checklist li.required')).toHaveCount(0);
});

test('create a webhook endpoint and see the secret once', async () => {
  await page.goto('/console/webhooks');
  await expect(page.getByText('No endpoints yet')).toBeVisible();
  await expectAccessible(page, 'webhooks-empty');
  const port = (receiver.address() as AddressInfo).port;
  await page.getByLabel('URL').fill(`http://127.0.0.1:${port}/hook`);
  await page.getByLabel('Name (optional)').fill('Local receiver');
  await page.getByRole('button', { name: 'Create endpoint' }).click();
  await expect(page.getByTestId('secret')).toHaveText(/^whsec_/);
  await expect(page.getByRole('article', { name: 'Endpoint Local receiver' })).toBeVisible();
  await page.getByRole('button', { name: 'Send test event' }).click();
  await expect(page.getByText(/Test answered 200/)).toBeVisible();
});

test('create a listing with an uploaded file and publish it', async () => {
  await page.goto('/console/listings');
  await expect(page.getByText('No listings yet')).toBeVisible();
  await expectAccessible(page, 'listings-empty');
  await page.getByRole('link', { name: 'New listing' }).click();
  await expectAccessible(page, 'listing-new');
  await screenshots(page, 'listing-new');

  // A bad price is shown next to the price field.
  await page.getByLabel('Title').fill('Field guide to moss');
  await page.getByLabel(/^Price/).fill('abc');
  await page.getByRole('button', { name: 'Create listing' }).click();
  await expect(page.locator('.field', { has: page.getByLabel(/^Price/) }).locator('.error')).toContainText('price');

  await page.getByLabel(/^Price/).fill('12.50');
  await page.getByLabel('Description').fill('Forty pages of moss, photographed.');
  const pdf = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
  await page.getByLabel('Deliverable file').setInputFiles({ name: 'moss-guide.pdf', mimeType: 'application/pdf', buffer: pdf });
  await expect(page.getByRole('progressbar', { name: /Upload of deliverable file/ })).toBeVisible();
  await expect(page.getByText('Uploaded moss-guide.pdf')).toBeVisible();
  await page.getByRole('button', { name: 'Add deliverable' }).click();
  await expect(page.locator('.items')).toContainText('moss-guide.pdf');
  await page.getByLabel('Cover image').setInputFiles({ name: 'moss.png', mimeType: 'image/png', buffer: png });
  await expect(page.getByText('Uploaded moss.png')).toBeVisible();
  await page.getByRole('button', { name: 'Add a checkout field' }).click();
  await page.getByLabel('Key', { exact: true }).fill('favourite_moss');
  await page.getByLabel('Label').fill('Your favourite moss');
  await page.getByLabel('utm_campaign').fill('launch');
  await page.getByRole('button', { name: 'Create listing' }).click();

  await expect(page).toHaveURL(/\/console\/listings\/lst_/);
  listingId = page.url().split('/').pop()!;
  await expect(page.getByRole('heading', { name: 'Field guide to moss' })).toBeVisible();
  await expect(page.getByRole('img', { name: 'Cover of Field guide to moss' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Deliverables', exact: true })).toContainText('moss-guide.pdf');
  await page.getByRole('button', { name: 'Publish' }).first().click();
  await expect(page.locator('.page-head .badge')).toHaveText('published');
  await expect(page.getByRole('heading', { name: 'On sale' })).toBeVisible();
  productUrl = (await page.getByRole('link', { name: 'Product page' }).getAttribute('href'))!;
  expect(productUrl).toMatch(/\/p\//);
  await expectAccessible(page, 'listing');
  await screenshots(page, 'listing');

  await page.goto('/console/listings?status=PUBLISHED');
  await expect(page.getByRole('link', { name: 'Field guide to moss' })).toBeVisible();
  await page.getByLabel('Status').selectOption('DRAFT');
  await expect(page.getByText('No listing has this status.')).toBeVisible();
  await page.getByLabel('Status').selectOption('');
  await expectAccessible(page, 'listings');
  await screenshots(page, 'listings');
});

test('a buyer in another browser buys it; the order appears in the live feed', async ({ browser, baseURL }) => {
  await page.goto('/console/events');
  await expect(page.getByText('Waiting for events')).toBeVisible();
  await expectAccessible(page, 'events-empty');
  // Let the subscription start before the purchase.
  await page.waitForTimeout(1000);

  const buyer = await browser.newContext({ baseURL });
  const shop = await buyer.newPage();
  await shop.goto(productUrl);
  await shop.getByLabel(/email/i).fill('buyer@example.com');
  await shop.getByLabel('Your favourite moss').fill('Sphagnum');
  await shop.getByRole('button', { name: /^Buy for/ }).click();
  await shop.getByRole('button', { name: 'Continue' }).click();
  await expect(shop).toHaveURL(/thank-you/);
  await buyer.close();

  const item = page.getByTestId('event').filter({ hasText: 'order.paid' });
  await expect(item).toBeVisible({ timeout: 30_000 });
  await expect(item).toContainText('buyer@example.com');
  orderId = (await item.getByRole('link').first().textContent())!;
  expect(orderId).toMatch(/^ord_/);
  await expectAccessible(page, 'events');
  await screenshots(page, 'events');

  // Opened again, the screen starts with the events so far (the newest
  // first), each once, and goes on live from there.
  await page.reload();
  const again = page.getByTestId('event').filter({ hasText: 'order.paid' });
  await expect(again).toHaveCount(1);
  await expect(again).toContainText(orderId);
  await expect(page.getByText('Waiting for events')).toHaveCount(0);
});

test('the webhook delivery log shows the order', async () => {
  await page.goto('/console/webhooks');
  const card = page.getByRole('article', { name: 'Endpoint Local receiver' });
  await expect(async () => {
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(card.getByRole('row', { name: /order\.paid/ })).toContainText('delivered', { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  expect(received.some((b) => b.includes(orderId))).toBe(true);
  await card.getByRole('row', { name: /order\.paid/ }).getByRole('button', { name: 'Retry' }).click();
  await expect(card.getByText(/^Retried evt_/)).toBeVisible();
  await expectAccessible(page, 'webhooks');
  await screenshots(page, 'webhooks');
});

test('orders, the order and its refund', async () => {
  await page.goto('/console/orders');
  await expect(page.getByRole('link', { name: 'Field guide to moss' })).toBeVisible();
  await expectAccessible(page, 'orders');
  await screenshots(page, 'orders');
  await page.getByLabel('Listing id').fill(listingId);
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(page).toHaveURL(new RegExp(`listing=${listingId}`));
  await expect(page.getByRole('link', { name: 'Field guide to moss' })).toBeVisible();
  await page.getByLabel('Status').selectOption('REFUNDED');
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(page.getByText('No orders match these filters.')).toBeVisible();

  await page.goto(`/console/orders/${orderId}`);
  await expect(page.getByRole('heading', { name: `Order ${orderId}` })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Listing when bought' })).toContainText('Field guide to moss');
  await expect(page.getByRole('region', { name: 'Checkout answers' })).toContainText('Sphagnum');
  await expectAccessible(page, 'order');
  await screenshots(page, 'order');
  await page.getByRole('button', { name: 'Refund' }).click();
  await expect(page.getByText('Refund requested')).toBeVisible();
  await expect(async () => {
    await page.reload();
    await expect(page.locator('.page-head .badge')).toHaveText('refunded', { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
});

test('customers, settings, billing and home show the account', async () => {
  await page.goto('/console/customers');
  await expect(page.getByRole('link', { name: 'buyer@example.com' })).toBeVisible();
  await expectAccessible(page, 'customers');
  await screenshots(page, 'customers');

  await page.goto('/console/settings');
  await expect(page.getByLabel('Name')).toHaveValue('Playwright Prints');
  await page.getByLabel('Bio').fill('Small prints of small plants.');
  await page.getByLabel('Avatar').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png });
  await expect(page.getByText('Uploaded me.png')).toBeVisible();
  await page.getByRole('button', { name: 'Save profile' }).click();
  await expect(page.getByText('Profile saved.')).toBeVisible();
  await expect(page.getByRole('img', { name: 'Your avatar' })).toBeVisible();
  await page.getByLabel('Google Analytics measurement id').fill('G-BAD');
  await page.getByRole('button', { name: 'Save settings' }).click();
  const ga = page.getByLabel('Google Analytics measurement id');
  await expect(ga).toHaveAttribute('aria-invalid', 'true');
  await ga.fill('G-ABCDE12345');
  // Webhook alerts are on by default; turned off, they stay off.
  const alerts = page.getByLabel('Email me when a webhook endpoint fails');
  await expect(alerts).toBeChecked();
  await alerts.uncheck();
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('Settings saved.')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Email me when a webhook endpoint fails')).not.toBeChecked();
  await expect(page.getByLabel('Google Analytics measurement id')).toHaveValue('G-ABCDE12345');
  await expectAccessible(page, 'settings');
  await screenshots(page, 'settings');

  await page.goto('/console/settings/billing');
  await expect(page.getByRole('heading', { name: 'Growth' })).toBeVisible();
  await expect(page.locator('.plans .current')).toContainText('Free');
  await expect(page.getByText('No subscription: you are on the free plan.')).toBeVisible();
  await expectAccessible(page, 'billing');

  // Upgrade to Growth through the sandbox's hosted subscription page, which
  // returns here; the plan, fee rate and subscription change.
  await page.getByRole('button', { name: 'Move to Growth' }).click();
  await expect(page.getByRole('heading', { name: 'Sandbox subscription' })).toBeVisible();
  await expect(page.getByText('Growth plan')).toBeVisible();
  await page.getByRole('radio', { name: 'Pay', exact: true }).check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/console\/settings\/billing\?plan_change=paid/);
  await expect(page.getByText('Payment received: your new plan is in force.')).toBeVisible();
  await expect(page.getByTestId('plan')).toHaveText('growth');
  await expect(page.getByTestId('fee-rate')).toHaveText('5% of each sale');
  await expect(page.locator('.plans .current')).toContainText('Growth');
  const sub = page.getByTestId('subscription');
  await expect(sub).toContainText('growth');
  await expect(sub).toContainText('active');
  await expect(sub).toContainText('Renews automatically');
  await expectAccessible(page, 'billing-growth');
  await screenshots(page, 'billing');

  // A subscription checkout that expired unpaid sends the seller back with
  // plan_change=expired: the page says so, and the plan is unchanged.
  await page.goto('/console/settings/billing?plan_change=expired');
  await expect(page.getByRole('alert')).toContainText('expired before it was paid');
  await expect(page.getByTestId('plan')).toHaveText('growth');
  await screenshots(page, 'billing-expired');

  await page.goto('/console/');
  // The listing shows twice, each in its own place: the recent order's
  // link and the top listing's (two queries; either may render first).
  await expect(page.getByRole('region', { name: 'Recent orders' }).getByRole('link', { name: 'Field guide to moss' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Top listings by revenue' }).getByRole('link', { name: 'Field guide to moss' })).toBeVisible();
  await expectAccessible(page, 'home');
  await screenshots(page, 'home');
});

test('create an API key, see it once, revoke it', async () => {
  await page.goto('/console/api-keys');
  await page.getByLabel('Name').fill('CI deploys');
  await page.getByLabel('Scope').selectOption('READ_ONLY');
  await page.getByRole('button', { name: 'Create key' }).click();
  await expect(page.getByTestId('secret')).toHaveText(/^svc_/);
  const row = page.getByRole('row', { name: /CI deploys/ });
  await expect(row).toContainText('read only');
  await expectAccessible(page, 'api-keys');
  await screenshots(page, 'api-keys');
  await row.getByRole('button', { name: 'Revoke CI deploys' }).click();
  await expect(page.getByText('Revoked “CI deploys”.')).toBeVisible();
  await expect(page.getByRole('row', { name: /CI deploys/ })).toHaveCount(0);
});

test('sign out ends the session; signing in again needs only the passcode', async ({ request }) => {
  await page.goto('/console/');
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in or create an account' })).toBeVisible();
  await page.goto('/console/orders');
  await expect(page.getByRole('heading', { name: 'Sign in or create an account' })).toBeVisible();

  // A wrong passcode is shown next to the passcode field.
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Email me a passcode' }).click();
  const passcode = page.getByLabel('Passcode');
  await expect(passcode).toBeVisible();
  const code = await passcodeFor(request, email);
  await passcode.fill(code === '000000' ? '111111' : '000000');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(passcode).toHaveAttribute('aria-invalid', 'true');
  await passcode.fill(code);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { name: 'Orders' })).toBeVisible();
  await expect(page.getByTestId('secret')).toHaveCount(0);
});

test('no request went to another host; no script error or CSP violation', async () => {
  expect(foreign).toEqual([]);
  expect(consoleErrors).toEqual([]);
});
