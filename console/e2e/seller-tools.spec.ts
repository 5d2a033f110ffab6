// The rest of the seller's tools: editing a draft (server errors at their
// fields, deliverables added and removed), an externally fulfilled listing
// whose order the seller fulfils with content and a note, webhook
// disable/enable, the processor's test key and disconnection.
import { test, expect, type BrowserContext, type Page } from '@playwright/test';
import { expectAccessible, signUpAndConnect } from './helpers';

test.describe.configure({ mode: 'serial' });

const email = `tools-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
let context: BrowserContext;
let page: Page;
let listingPath = '';

test.beforeAll(async ({ browser, baseURL }) => {
  context = await browser.newContext({ baseURL });
  page = await context.newPage();
  page.on('dialog', (d) => d.accept());
});

test.afterAll(async () => {
  await context?.close();
});

test('edit a draft: server errors at their fields, deliverables added and removed', async ({ request }) => {
  await signUpAndConnect(page, request, email, 'Tool Shed');
  await page.goto('/console/listings/new');
  await page.getByLabel('Title').fill('Custom portrait');
  await page.getByLabel(/^Price/).fill('0');
  await page.getByRole('button', { name: 'Create listing' }).click();
  const price = page.getByLabel(/^Price/);
  await expect(price).toHaveAttribute('aria-invalid', 'true');
  await expect(page.locator('.field', { has: price }).locator('.error')).not.toBeEmpty();

  await price.fill('40');
  await page.getByLabel('Orders without deliverables are fulfilled by').selectOption('GENERATED');
  await page.getByRole('button', { name: 'Create listing' }).click();
  await expect(page).toHaveURL(/\/console\/listings\/lst_/);
  listingPath = new URL(page.url()).pathname;

  // A link that cannot be used is refused at its field (the service checks
  // the address; this machine resolves no outside name).
  const deliverables = page.getByRole('region', { name: 'Deliverables', exact: true });
  await deliverables.getByLabel('Deliverable type').selectOption('URL');
  await deliverables.getByLabel('Link (https)').fill('https://unresolvable.invalid/guide');
  await deliverables.getByRole('button', { name: 'Add deliverable' }).click();
  await expect(deliverables.getByLabel('Link (https)')).toHaveAttribute('aria-invalid', 'true');
  // A text deliverable, added to the draft and removed again.
  await deliverables.getByLabel('Deliverable type').selectOption('TEXT');
  await deliverables.getByLabel('Text').fill('How to send your photo: reply to the receipt.');
  await deliverables.getByRole('button', { name: 'Add deliverable' }).click();
  await expect(deliverables).toContainText('How to send your photo');
  await deliverables.getByRole('button', { name: 'Remove' }).click();
  await expect(deliverables).toContainText('No deliverables: orders are fulfilled by you.');

  // Changing the draft's fields.
  await page.getByLabel('Description').fill('A portrait drawn from your photo.');
  await page.getByLabel(/^Price/).fill('45.00');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Saved.')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel(/^Price/)).toHaveValue('45.00');
  await expect(page.getByLabel('Description')).toHaveValue('A portrait drawn from your photo.');
  await expectAccessible(page, 'listing-draft');

  await page.getByRole('button', { name: 'Publish' }).first().click();
  await expect(page.locator('.page-head .badge')).toHaveText('published');
  await page.getByRole('button', { name: 'Pause' }).click();
  await expect(page.locator('.page-head .badge')).toHaveText('paused');
  await page.getByRole('button', { name: 'Resume' }).click();
  await expect(page.locator('.page-head .badge')).toHaveText('published');
});

test('fulfil a generated order with content and a note, from the home checklist', async ({ browser, baseURL }) => {
  const productUrl = (await page.getByRole('link', { name: 'Product page' }).getAttribute('href'))!;
  const buyer = await browser.newContext({ baseURL });
  const shop = await buyer.newPage();
  await shop.goto(productUrl);
  await shop.getByLabel(/email/i).fill('patron@example.com');
  await shop.getByRole('button', { name: /^Buy for/ }).click();
  await shop.getByRole('button', { name: 'Continue' }).click();
  await expect(shop).toHaveURL(/thank-you/);
  await buyer.close();

  await page.goto('/console/');
  const fulfil = page.getByRole('link', { name: 'Fulfill the order' });
  await expect(async () => {
    await page.reload();
    await expect(fulfil).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await fulfil.click();
  await expect(page.getByRole('heading', { name: /^Order ord_/ })).toBeVisible();
  const form = page.getByRole('region', { name: 'Fulfill' });
  await form.getByLabel('Deliverable type').selectOption('TEXT');
  await form.getByLabel('Text').fill('Your portrait: https://example.com/p/123');
  await form.getByRole('button', { name: 'Add deliverable' }).click();
  await form.getByLabel('Note for the buyer').fill('Thank you for your patience!');
  await expectAccessible(page, 'order-fulfill');
  await form.getByRole('button', { name: 'Fulfill order' }).click();
  await expect(page.getByText('Fulfilled: the buyer was sent the content.')).toBeVisible();
  await expect(page.locator('.page-head .badge')).toHaveText('fulfilled');
  await expect(page.getByRole('region', { name: 'Deliverables' })).toContainText('Your portrait');
  await page.getByRole('button', { name: 'Redeliver webhooks' }).click();
  await expect(page.getByText('queued again')).toBeVisible();
});

test('webhook endpoint disabled and enabled again', async () => {
  await page.goto('/console/webhooks');
  await page.getByLabel('URL').fill('not a url');
  await page.getByRole('button', { name: 'Create endpoint' }).click();
  await expect(page.getByLabel('URL')).toHaveAttribute('aria-invalid', 'true');
  await page.getByLabel('URL').fill('https://example.com/tool-shed-hook');
  await page.getByRole('button', { name: 'Create endpoint' }).click();
  const card = page.getByRole('article', { name: 'Endpoint https://example.com/tool-shed-hook' });
  await card.getByRole('button', { name: 'Disable' }).click();
  await expect(card.locator('.badge').first()).toHaveText('disabled');
  await expect(card).toContainText('disabled: manual');
  await card.getByRole('button', { name: 'Enable' }).click();
  await expect(card.locator('.badge').first()).toHaveText('enabled');
});

test('processor: a bad test key is refused at its field; disconnect', async () => {
  await page.goto('/console/processor');
  await page.getByRole('textbox', { name: 'Stripe test key' }).fill('sk_live_nope');
  await page.getByRole('button', { name: 'Save test key' }).click();
  await expect(page.getByRole('textbox', { name: 'Stripe test key' })).toHaveAttribute('aria-invalid', 'true');
  await page.getByRole('button', { name: 'Disconnect' }).click();
  await expect(page.getByText(/Disconnected\. 1 published listings? can no longer sell\./)).toBeVisible();
  await expect(page.locator('.facts')).toContainText('disconnected');
  await page.goto(listingPath.replace(/^\/console/, '/console'));
  await expect(page.getByRole('heading', { name: 'Not on sale' })).toBeVisible();
});
