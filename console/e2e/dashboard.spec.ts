// The seller's dashboard (CONTRACT §15, §23; issue 26): a store with sales
// over 60 days — real purchases through the sandbox checkout, moved back in
// time by the harness (COMMERCE_HARNESS_URL: console/browser_test.go), one
// refunded, and product-page views from many clients. The home screen's
// totals agree with GET /v1/analytics for each range, the chart draws one
// point per bucket, the top listings and a listing's own series show; the
// search fields narrow orders, customers and listings (kept in the URL);
// the orders' CSV export is the API's orders. Axe-checked, photographed.
import { test, expect, type APIRequestContext, type BrowserContext, type Page } from '@playwright/test';
import { expectAccessible, screenshots, signUpAndConnect } from './helpers';

test.describe.configure({ mode: 'serial' });

const stamp = `${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
const email = `dash-${stamp}@example.com`;
const harness = process.env.COMMERCE_HARNESS_URL;
let context: BrowserContext;
let page: Page;
let key = '';
const listings: { id: string; slug: string; title: string; price: number }[] = [];
const orders: { id: string; buyer: string; listing: string; daysAgo: number }[] = [];
const errors: string[] = [];

type Totals = { revenue: number; orders: number; refunds: number; views: number; checkouts: number; conversion_rate: string | null };
type Analytics = { currency: string; interval: string; from: string; to: string; totals: Totals; series: { start: string; revenue: number; orders: number }[] };

const usd = (minor: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(minor / 100);
const count = (n: number) => new Intl.NumberFormat('en-US').format(n);
const rate = (r: string | null) =>
  r == null ? '—' : new Intl.NumberFormat('en-US', { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 2 }).format(Number(r));

function day(offset: number): string {
  const d = new Date();
  d.setUTCDate(d.getUTCDate() + offset);
  return d.toISOString().slice(0, 10);
}

async function analytics(request: APIRequestContext, query: string): Promise<Analytics> {
  const r = await request.get(`/v1/analytics${query}`, { headers: { Authorization: `Bearer ${key}` } });
  expect(r.status(), await r.text()).toBe(200);
  return r.json();
}

/** A new buyer's purchase through the product page and the sandbox checkout, as a browser's forms post it; the order id. */
async function purchase(request: APIRequestContext, baseURL: string, slug: string, buyer: string): Promise<string> {
  const origin = new URL(baseURL).origin;
  const checkout = await request.post(`/p/${slug}/checkout`, { form: { email: buyer }, headers: { Origin: origin }, maxRedirects: 0 });
  expect(checkout.status(), await checkout.text()).toBe(303);
  const session = new URL(checkout.headers()['location'], baseURL);
  expect(session.pathname).toMatch(/^\/sandbox\/checkout\//);
  const paid = await request.post(session.pathname, { form: { outcome: 'paid' }, headers: { Origin: origin }, maxRedirects: 0 });
  expect(paid.status(), await paid.text()).toBe(303);
  const thanks = new URL(paid.headers()['location'], baseURL);
  const id = thanks.searchParams.get('order');
  expect(id, `thank-you page ${thanks}`).toMatch(/^ord_/);
  return id!;
}

/** Every order of the account the API lists with these filters, newest first. */
async function apiOrders(request: APIRequestContext, query: string): Promise<{ id: string; buyer_email: string; amount: number; status: string }[]> {
  const out: { id: string; buyer_email: string; amount: number; status: string }[] = [];
  let cursor = '';
  for (;;) {
    const r = await request.get(`/v1/orders?limit=100${query ? `&${query}` : ''}${cursor ? `&cursor=${cursor}` : ''}`, { headers: { Authorization: `Bearer ${key}` } });
    expect(r.status(), await r.text()).toBe(200);
    const page = await r.json();
    out.push(...page.data);
    if (!page.has_more) return out;
    cursor = page.next_cursor;
  }
}

/** RFC 4180 rows of a CSV text. */
function parseCSV(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  if (field || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

test.beforeAll(async ({ browser, baseURL }) => {
  context = await browser.newContext({ baseURL });
  page = await context.newPage();
  page.on('dialog', (d) => d.accept());
  page.on('pageerror', (e) => errors.push(`${page.url()}: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy|Refused to/i.test(m.text())) errors.push(`${page.url()}: ${m.text()}`);
  });
});

test.afterAll(async () => {
  await context?.close();
});

test('before any sale: the checklist first, and no chart', async ({ request }) => {
  key = await signUpAndConnect(page, request, email, 'Dashboard Docks');
  await page.goto('/console/');
  await expect(page.getByRole('heading', { name: /Your store can sell|Before you can sell/ })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Your numbers' })).toHaveCount(0);
  await expect(page.getByRole('img')).toHaveCount(0);
  const headings = await page.getByRole('heading', { level: 2 }).allTextContents();
  expect(headings[0]).toMatch(/Your store can sell|Before you can sell/);
});

test('sales over 60 days: purchases through the sandbox, moved back in time, one refunded, and views', async ({ request, baseURL }) => {
  test.setTimeout(240_000);
  expect(harness, 'COMMERCE_HARNESS_URL (console/browser_test.go)').toBeTruthy();
  const headers = { Authorization: `Bearer ${key}` };
  for (const [title, price] of [
    ['Tide tables 2027', 1500],
    ['Harbour sketches', 900],
    ['Knots, a field guide', 2400],
  ] as const) {
    const created = await request.post('/v1/listings', { headers, data: { title, price, deliverables: [{ type: 'text', value: `Thank you for buying ${title}.` }] } });
    expect(created.status(), await created.text()).toBe(201);
    const { id } = await created.json();
    const published = await request.post(`/v1/listings/${id}/publish`, { headers });
    expect(published.status(), await published.text()).toBe(200);
    listings.push({ id, slug: (await published.json()).slug, title, price });
  }
  // 24 purchases over 60 days, oldest first (as their ids sort): more of the tide tables, two today.
  const plan = [59, 57, 52, 50, 45, 41, 38, 33, 30, 29, 25, 21, 18, 15, 12, 9, 8, 6, 5, 3, 2, 1, 0, 0];
  for (let i = 0; i < plan.length; i++) {
    const l = listings[i % 4 === 3 ? 2 : i % 3 === 2 ? 1 : 0];
    const buyer = `sailor-${i}-${stamp}@example.com`;
    const id = await purchase(request, baseURL!, l.slug, buyer);
    orders.push({ id, buyer, listing: l.id, daysAgo: plan[i] });
  }
  // Paid (and fulfilled: text deliverables) before they move.
  await expect
    .poll(async () => (await apiOrders(request, '')).filter((o) => o.status === 'fulfilled' || o.status === 'paid').length, { timeout: 60_000 })
    .toBe(plan.length);
  // One refund, three days ago's order.
  const refunded = orders.find((o) => o.daysAgo === 3)!;
  const r = await request.post(`/v1/orders/${refunded.id}/refund`, { headers });
  expect([200, 202], await r.text()).toContain(r.status());
  // Refunded once the processor confirms (refunded_at), before the order moves back.
  await expect
    .poll(async () => (await (await request.get(`/v1/orders/${refunded.id}`, { headers })).json()).refunded_at, { timeout: 30_000 })
    .toBeTruthy();
  for (const o of orders) {
    if (o.daysAgo === 0) continue;
    const b = await request.post(`${harness}/orders/backdate`, { data: { order_id: o.id, days: o.daysAgo } });
    expect(b.status(), await b.text()).toBe(204);
  }
  // Views: 40 clients (user agents) on the tide tables' page, 10 on the sketches'.
  for (let i = 0; i < 50; i++) {
    const l = i < 40 ? listings[0] : listings[1];
    const v = await request.get(`/p/${l.slug}`, { headers: { 'User-Agent': `DashboardSpec/${stamp}/${i}` } });
    expect(v.status()).toBe(200);
  }
  // The counter flushes every few seconds.
  await expect.poll(async () => (await analytics(request, '')).totals.views, { timeout: 30_000 }).toBe(50);
});

test('the home screen opens on the numbers, and they match GET /v1/analytics for each range', async ({ request }) => {
  await page.goto('/console/');
  await expect(page.getByRole('heading', { name: 'Your numbers' })).toBeVisible();
  const headings = await page.getByRole('heading', { level: 2 }).allTextContents();
  expect(headings.slice(0, 2)).toEqual(['Your numbers', expect.stringMatching(/Your store can sell|Before you can sell/)]);

  for (const [label, query, points, name] of [
    ['30 days', '', 30, /^Revenue and orders per day, 30 days to /],
    ['7 days', `?from=${day(-6)}&to=${day(0)}`, 7, /^Revenue and orders per day, 7 days to /],
    ['12 months', `?interval=month&from=${day(0).slice(0, 8)}01&to=${day(0)}`, 0, /^Revenue and orders per month, 12 months to /],
  ] as const) {
    await page.getByRole('navigation', { name: 'Range' }).getByRole('link', { name: label }).click();
    let q: string = query;
    if (label === '12 months') {
      const d = new Date();
      const from = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 11, 1)).toISOString().slice(0, 10);
      q = `?interval=month&from=${from}&to=${day(0)}`;
    }
    const want = await analytics(request, q);
    const chart = page.getByRole('img', { name });
    await expect(chart).toBeVisible();
    await expect(chart.locator('[data-points]')).toHaveAttribute('data-points', String(points || want.series.length));
    expect(want.series.length).toBe(points || 12);
    await expect(page.getByTestId('total-revenue')).toHaveText(usd(want.totals.revenue));
    await expect(page.getByTestId('total-orders')).toHaveText(count(want.totals.orders));
    await expect(page.getByTestId('total-views')).toHaveText(count(want.totals.views));
    await expect(page.getByTestId('total-conversion')).toHaveText(rate(want.totals.conversion_rate));
    await expect(page.getByTestId('total-revenue-change')).toHaveText(/^([+\u2212]\d+(\.\d)?%|no change|new: none before)/);
  }
  // The 30 days hold the purchases of days 0..29, one refunded in them.
  await page.getByRole('navigation', { name: 'Range' }).getByRole('link', { name: '30 days' }).click();
  const month = await analytics(request, '');
  expect(month.totals.orders).toBe(orders.filter((o) => o.daysAgo <= 29).length);
  expect(month.totals.refunds).toBe(1);
  await expect(page).toHaveURL(/\/console\/$/);

  // Top listings by revenue: the tide tables first, with their views and conversion.
  const top = page.getByRole('table', { name: 'Top listings by revenue' });
  await expect(top.getByRole('row').nth(1)).toContainText('Tide tables 2027');
  await expect(top.getByRole('row').nth(1)).toContainText('40');
  await expectAccessible(page, 'home-dashboard');
  await screenshots(page, 'home-dashboard');

  // The range is kept in the URL.
  await page.getByRole('navigation', { name: 'Range' }).getByRole('link', { name: '12 months' }).click();
  await expect(page).toHaveURL(/range=12m/);
  await page.reload();
  // Drawn (uPlot's chunk loads after the first screen) before the photograph.
  await expect(page.getByRole('img', { name: /per month, 12 months/ }).locator('[data-points]')).toHaveAttribute('data-points', '12');
  await screenshots(page, 'home-dashboard-12-months');
});

test("a listing's screen shows its own series", async ({ request }) => {
  const tide = listings[0];
  await page.goto(`/console/listings/${tide.id}`);
  const sales = page.getByRole('region', { name: 'Sales' });
  await expect(sales).toBeVisible();
  const want = await analytics(request, `?listing=${tide.id}`);
  const chart = sales.getByRole('img', { name: /^Revenue and orders of Tide tables 2027 per day, 30 days to / });
  await expect(chart.locator('[data-points]')).toHaveAttribute('data-points', '30');
  await expect(sales.getByTestId('listing-revenue')).toHaveText(usd(want.totals.revenue));
  await expect(sales.getByTestId('listing-orders')).toHaveText(count(want.totals.orders));
  await expect(sales.getByTestId('listing-views')).toHaveText('40');
  expect(want.totals.orders).toBeGreaterThan(0);
  await expectAccessible(page, 'listing-sales');
  await screenshots(page, 'listing-sales');
});

test('search narrows orders, customers and listings, and a reload keeps it', async () => {
  const one = orders[5];
  // Orders by part of the buyer's email.
  await page.goto('/console/orders');
  const search = page.getByRole('searchbox', { name: 'Search orders' });
  await expect(search).toHaveAttribute('type', 'search');
  await search.fill(`sailor-5-`);
  await expect(page).toHaveURL(/[?&]q=sailor-5-/);
  await expect(page.locator('tbody tr')).toHaveCount(1);
  await expect(page.locator('tbody tr')).toContainText(one.buyer);
  await page.reload();
  await expect(page.getByRole('searchbox', { name: 'Search orders' })).toHaveValue('sailor-5-');
  await expect(page.locator('tbody tr')).toHaveCount(1);
  // By order id.
  await page.getByRole('searchbox', { name: 'Search orders' }).fill(orders[7].id);
  await expect(page.locator('tbody tr')).toHaveCount(1);
  await expect(page.locator('tbody tr')).toContainText(orders[7].buyer);
  // Nothing matches: words, not an empty table.
  await page.getByRole('searchbox', { name: 'Search orders' }).fill('nobody-at-all');
  await expect(page.getByText('No orders match “nobody-at-all”.')).toBeVisible();
  await expectAccessible(page, 'orders-search-empty');

  await page.goto('/console/customers');
  await page.getByRole('searchbox', { name: 'Search customers' }).fill(`SAILOR-1`);
  // sailor-1-…, sailor-10-… to sailor-19-…
  await expect(page.locator('tbody tr')).toHaveCount(11);
  await page.reload();
  await expect(page.locator('tbody tr')).toHaveCount(11);
  await expectAccessible(page, 'customers-search');
  await screenshots(page, 'customers-search');

  await page.goto('/console/listings');
  await page.getByRole('searchbox', { name: 'Search listings' }).fill('harbour');
  await expect(page.locator('tbody tr')).toHaveCount(1);
  await expect(page.locator('tbody tr')).toContainText('Harbour sketches');
  await page.getByRole('searchbox', { name: 'Search listings' }).fill('nothing like it');
  await expect(page.getByText('No listings match “nothing like it”.')).toBeVisible();
});

test("Export CSV downloads the list's orders with its filters, as the API lists them", async ({ request }) => {
  await page.goto('/console/orders?q=sailor-1');
  await expect(page.locator('tbody tr')).toHaveCount(11);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export CSV' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^orders-\d{4}-\d{2}-\d{2}\.csv$/);
  const path = await download.path();
  const { readFileSync } = await import('node:fs');
  const text = readFileSync(path!, 'utf8');
  expect(text).toContain('\r\n');
  const [header, ...rows] = parseCSV(text).filter((r) => r.length > 1);
  expect(header.slice(0, 16)).toEqual([
    'id', 'created_at', 'paid_at', 'status', 'listing_id', 'listing_title', 'buyer_email', 'currency', 'subtotal',
    'discount_code', 'discount_amount', 'amount', 'platform_fee', 'net_amount', 'refund_amount', 'refunded_at',
  ]);
  const api = await apiOrders(request, 'query=sailor-1');
  const col = (name: string) => header.indexOf(name);
  // Oldest first in the export, newest first in the list: the same orders.
  expect(rows.map((r) => r[col('id')]).sort()).toEqual(api.map((o) => o.id).sort());
  for (const o of api) {
    const row = rows.find((r) => r[col('id')] === o.id)!;
    expect(row[col('buyer_email')]).toBe(o.buyer_email);
    expect(Number(row[col('amount')])).toBe(o.amount);
    expect(row[col('status')]).toBe(o.status);
    expect(row[col('currency')]).toBe('usd');
  }
  expect(errors, 'script errors or CSP violations').toEqual([]);
});
