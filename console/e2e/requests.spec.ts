// The request log in the console (issue 29): before any request, an empty
// state that says how to make one; then the requests two API keys made
// (REST, a 404, a named GraphQL operation) listed newest first with
// method, path, status (its colour by class), time and correlation id (copied
// to the clipboard); filtered by status class and by key (also reached from
// the API keys screen); paged; the console's own requests never in it.
import { test, expect, type APIRequestContext, type BrowserContext, type Page } from '@playwright/test';
import { expectAccessible, screenshots, signUpAndConnect } from './helpers';

test.describe.configure({ mode: 'serial' });

const email = `requests-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
let context: BrowserContext;
let page: Page;
let firstKey = '';
let deployKey = '';
let deployKeyId = '';
const consoleErrors: string[] = [];

test.beforeAll(async ({ browser, baseURL }) => {
  context = await browser.newContext({ baseURL, permissions: ['clipboard-read', 'clipboard-write'] });
  page = await context.newPage();
  page.on('dialog', (d) => d.accept());
  page.on('pageerror', (e) => consoleErrors.push(`${page.url()}: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && new URL(page.url()).pathname.startsWith('/console')) consoleErrors.push(`${page.url()}: ${m.text()}`);
  });
});

test.afterAll(async () => {
  await context?.close();
});

async function api(request: APIRequestContext, key: string, method: 'GET' | 'POST', path: string, data?: unknown) {
  const r = await request.fetch(path, { method, headers: { authorization: `Bearer ${key}` }, data });
  return r;
}

test('before any request: the empty state says how to make one', async ({ request }) => {
  firstKey = await signUpAndConnect(page, request, email, 'Request Works');
  await page.getByRole('link', { name: 'Requests', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Requests', level: 1 })).toBeVisible();
  await expect(page.getByText('No API requests yet.')).toBeVisible();
  await expect(page.getByText('/v1/account').first()).toBeVisible();
  await expect(page.getByRole('link', { name: 'API keys' }).last()).toBeVisible();
  await expectAccessible(page, 'requests-empty');
  await screenshots(page, 'requests-empty');
});

test("the keys' requests, newest first, with status colours and a copyable correlation id", async ({ request }) => {
  expect((await api(request, firstKey, 'GET', '/v1/account')).status()).toBe(200);
  const missing = await api(request, firstKey, 'GET', '/v1/orders/ord_01jdx0000000000000000000zz');
  expect(missing.status()).toBe(404);
  const missingCorrelation = missing.headers()['x-correlation-id'];
  const op = await api(request, firstKey, 'POST', '/graphql', { query: 'query ShopCheck { viewer { id } }', operationName: 'ShopCheck' });
  expect(op.status()).toBe(200);
  const created = await api(request, firstKey, 'POST', '/v1/api-keys', { name: 'CI deploy' });
  expect(created.status()).toBe(201);
  const body = await created.json();
  deployKey = body.key;
  deployKeyId = body.id;
  for (let i = 0; i < 30; i++) expect((await api(request, deployKey, 'GET', '/v1/listings?limit=1')).status()).toBe(200);

  // A request appears within a second: refresh until the newest are there.
  // The page is full (25 rows) before the last flush lands, so the wait is
  // for the 30 listings reads, the newest 25 of which fill the first page.
  await expect
    .poll(
      async () => {
        await page.getByRole('button', { name: 'Refresh' }).click();
        return page.locator('table.requests tbody tr', { hasText: 'GET /v1/listings' }).count();
      },
      { timeout: 15_000 },
    )
    .toBe(25);
  await expect(page.locator('table.requests tbody tr')).toHaveCount(25);
  const rows = page.locator('table.requests tbody tr');
  // Newest first: CI deploy's listings reads, the query string not shown.
  await expect(rows.first().getByRole('cell').first()).toHaveText('GET /v1/listings');
  await expect(rows.first()).toContainText('CI deploy');
  await expect(rows.first().locator('.badge')).toHaveClass(/badge-http-2xx/);
  await expect(rows.first().locator('time')).toHaveText(/\d{1,2}:\d{2}:\d{2}/);

  // The next page reaches the first key's requests.
  await page.getByRole('button', { name: 'Next page' }).click();
  await expect(page.getByText('Page 2')).toBeVisible();
  const notFound = page.locator('table.requests tbody tr', { hasText: 'GET /v1/orders/ord_01jdx0000000000000000000zz' });
  await expect(notFound).toHaveCount(1);
  await expect(notFound.locator('.badge')).toHaveText('404');
  await expect(notFound.locator('.badge')).toHaveClass(/badge-http-4xx/);
  await expect(notFound).toContainText(missingCorrelation);
  await expect(page.locator('table.requests tbody tr', { hasText: 'POST /graphql' })).toContainText('ShopCheck');
  await expect(page.locator('table.requests tbody tr', { hasText: 'POST /v1/api-keys' }).locator('.badge')).toHaveText('201');

  await notFound.getByRole('button', { name: `Copy: ${missingCorrelation}` }).click();
  await expect(notFound.getByRole('button', { name: `Copied: ${missingCorrelation}` })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(missingCorrelation);
  await screenshots(page, 'requests-page-2');
});

test('filtered by status class and by key; reached per key from the API keys screen', async () => {
  await page.goto('/console/requests');
  await page.getByLabel('Status').selectOption('CLIENT_ERROR');
  await expect(page.locator('table.requests tbody tr')).toHaveCount(1);
  await expect(page.locator('table.requests tbody tr')).toContainText('/v1/orders/ord_01jdx0000000000000000000zz');
  await expect(page).toHaveURL(/status=CLIENT_ERROR/);
  await page.getByLabel('Status').selectOption('SERVER_ERROR');
  await expect(page.getByText('No requests match these filters.')).toBeVisible();
  await page.getByRole('link', { name: 'Show every request' }).click();

  await page.getByRole('link', { name: 'API keys' }).first().click();
  await page.getByRole('link', { name: 'Requests of CI deploy' }).click();
  await expect(page).toHaveURL(new RegExp(`/console/requests\\?key=${deployKeyId}`));
  await expect(page.getByLabel('API key')).toHaveValue(deployKeyId);
  const rows = page.locator('table.requests tbody tr');
  await expect(rows).toHaveCount(25);
  for (const text of await rows.allTextContents()) expect(text).toContain('CI deploy');
  await page.getByRole('button', { name: 'Next page' }).click();
  await expect(rows).toHaveCount(5);

  // The console's own requests (all of the above) are not in the log.
  await page.goto('/console/requests');
  await expect(page.locator('table.requests tbody tr').first()).toContainText('GET /v1/listings');
  await expectAccessible(page, 'requests');
  await screenshots(page, 'requests');
  expect(consoleErrors).toEqual([]);
});
