import { test, expect, type Page } from '@playwright/test';

// The browser harness's own check (console/browser_test.go runs every spec
// here against the real service): the front door, the API reference and
// the console load in Chromium under their Content-Security-Policies, with
// no request to another host and no script error.

function watch(page: Page, baseURL: string) {
  const own = new URL(baseURL).origin;
  const foreign: string[] = [];
  const problems: string[] = [];
  page.on('request', (r) => {
    const u = new URL(r.url());
    if ((u.protocol === 'http:' || u.protocol === 'https:' || u.protocol === 'ws:' || u.protocol === 'wss:') && u.origin !== own &&
        u.origin.replace(/^ws/, 'http') !== own) {
      foreign.push(r.url());
    }
  });
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy|Refused to/i.test(m.text())) problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));
  return { foreign, problems };
}

test('the front door, the API reference and the console load from this host alone', async ({ page, baseURL }) => {
  const seen = watch(page, baseURL!);

  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'commerce' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'GraphQL IDE' })).toHaveAttribute('href', /\/graphql$/);
  await expect(page.getByRole('link', { name: 'Sandbox mailbox' })).toBeVisible();

  // Redoc renders /v1/openapi.yaml under the page's strict CSP.
  await page.getByRole('link', { name: 'API reference' }).click();
  await expect(page).toHaveURL(/\/docs\/api$/);
  await expect(page.getByRole('heading', { name: /commerce API/ }).first()).toBeVisible({ timeout: 60_000 });

  await page.goto('/');
  const response = page.waitForResponse((r) => new URL(r.url()).pathname.startsWith('/console/'));
  await page.getByRole('link', { name: 'Developer console' }).click();
  expect((await response).status()).toBe(200);
  await expect(page).toHaveURL(/\/console\/$/);
  await expect(page.locator('body')).not.toBeEmpty();

  expect(seen.foreign, 'requests to another host').toEqual([]);
  expect(seen.problems, 'CSP violations or script errors').toEqual([]);
});
