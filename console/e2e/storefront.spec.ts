// The storefront without JavaScript (issue 25, CONTRACT §10): a buyer
// whose browser runs no script opens a product page, fills the checkout
// form, pays at the sandbox's checkout and lands on the thank-you page.
// No page of the purchase loads anything from another host.
import { test, expect } from '@playwright/test';
import { screenshots, signUpAndConnect } from './helpers';

test('a purchase with JavaScript disabled', async ({ browser, baseURL, request }) => {
  const seller = await browser.newContext({ baseURL });
  const sellerPage = await seller.newPage();
  const key = await signUpAndConnect(sellerPage, request, `nojs-${Date.now()}@example.com`, 'No Script Press');
  await seller.close();
  const headers = { Authorization: `Bearer ${key}` };
  const created = await request.post('/v1/listings', {
    headers,
    data: {
      title: 'Plain pages handbook',
      price: 1900,
      description: 'A handbook for pages that **work without scripts**.\n\n- forms\n- links',
      deliverables: [{ type: 'text', value: 'Thank you for buying the handbook.' }],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const published = await request.post(`/v1/listings/${(await created.json()).id}/publish`, { headers });
  expect(published.status(), await published.text()).toBe(200);
  const productURL: string = (await published.json()).url;

  const buyer = await browser.newContext({ baseURL, javaScriptEnabled: false });
  const page = await buyer.newPage();
  const origin = new URL(baseURL!).origin;
  const foreign: string[] = [];
  page.on('request', (r) => {
    if (!r.url().startsWith(origin) && !r.url().startsWith('data:')) foreign.push(r.url());
  });
  await page.goto(productURL);
  await expect(page.getByRole('heading', { name: 'Plain pages handbook', level: 1 })).toBeVisible();
  await expect(page.locator('.desc strong')).toHaveText('work without scripts');
  await screenshots(page, 'storefront-product-nojs');
  await page.getByLabel(/^Email/).fill(`buyer-${Date.now()}@example.com`);
  await page.getByRole('button', { name: /^Buy for/ }).click();
  await expect(page).toHaveURL(/\/sandbox\/checkout\//);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/thank-you\?order=/);
  await expect(page.getByRole('heading', { name: 'Thank you!' })).toBeVisible();
  await expect(page.locator('main')).toContainText('Your order of Plain pages handbook');
  await screenshots(page, 'storefront-thank-you-nojs');
  expect(foreign, 'nothing from another host').toEqual([]);
  await buyer.close();
});
