// Discount codes and pay what you want in the console (CONTRACT §19):
// a discount created with a listing picked from the seller's listings,
// seen in the list with its status, edited, turned off and on (the list
// says why a code cannot be used), its share link copied; the API's field
// errors at their fields; deleted with confirmation. A pay-what-you-want
// listing's minimum, suggested and maximum prices saved and shown. An
// order that used a code shows its subtotal, the code and the amount. A
// listing deleted after it was chosen is shown, and dropped on saving.
import { test, expect, type APIRequestContext, type BrowserContext, type Page } from '@playwright/test';
import { expectAccessible, screenshots, signUpAndConnect } from './helpers';

test.describe.configure({ mode: 'serial' });

const email = `codes-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
let context: BrowserContext;
let page: Page;
let key = '';
let mossId = '';
let mossUrl = '';
let springId = '';
let orderId = '';
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

/** A published listing with a text deliverable, made through the API. */
async function publishedListing(request: APIRequestContext, title: string, price: number): Promise<{ id: string; url: string }> {
  const headers = { Authorization: `Bearer ${key}` };
  const created = await request.post('/v1/listings', {
    headers,
    data: { title, price, deliverables: [{ type: 'text', value: `Thank you for buying ${title}.` }] },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = await created.json();
  const published = await request.post(`/v1/listings/${id}/publish`, { headers });
  expect(published.status(), await published.text()).toBe(200);
  return { id, url: (await published.json()).url };
}

test('the empty state, then a discount created with a listing picked, its share link copied', async ({ request }) => {
  key = await signUpAndConnect(page, request, email, 'Discount Den');
  ({ id: mossId, url: mossUrl } = await publishedListing(request, 'Moss field guide', 1200));
  await publishedListing(request, 'Fern atlas', 2500);

  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Discounts' }).click();
  await expect(page.getByRole('heading', { name: 'Discounts', level: 1 })).toBeVisible();
  await expect(page.getByText('No discount codes yet.')).toBeVisible();
  await expect(page.locator('.empty')).toContainText('takes a percentage or a fixed amount off');
  await expectAccessible(page, 'discounts-empty');
  await screenshots(page, 'discounts-empty');

  await page.getByRole('link', { name: 'Create a discount code' }).click();
  await expect(page).toHaveURL(/\/console\/discounts\/new$/);
  await page.getByLabel('Name (optional)').fill('Spring newsletter');
  await page.getByLabel('Code', { exact: true }).fill('SPRING25');
  await page.getByLabel('Percent off').fill('25');
  await page.getByLabel('Only the listings I choose').check();
  const picker = page.getByRole('group', { name: /Chosen listings/ });
  await expect(picker.getByLabel('Fern atlas')).toBeVisible();
  await picker.getByLabel('Moss field guide').check();
  await expect(picker).toContainText('1 chosen');
  await page.getByLabel('Expires (UTC, optional)').fill('2031-03-01T12:00');
  await page.getByLabel('Most paid orders (optional)').fill('10');
  await page.getByLabel('Most uses per buyer (optional)').fill('1');
  await page.getByLabel('Minimum order (USD) (optional)').fill('5.00');
  await expectAccessible(page, 'discount-new');
  await screenshots(page, 'discount-new');
  await page.getByRole('button', { name: 'Create discount' }).click();

  await expect(page).toHaveURL(/\/console\/discounts\/dsc_/);
  springId = new URL(page.url()).pathname.split('/').pop()!;
  await expect(page.getByRole('heading', { name: 'Spring newsletter', level: 1 })).toBeVisible();
  await expect(page.getByText('Created the discount code SPRING25.')).toBeVisible();
  await expect(page.locator('.page-head .badge')).toHaveText('Active');
  const facts = page.getByRole('region', { name: 'Summary' });
  await expect(facts).toContainText('25% off');
  await expect(facts).toContainText('Moss field guide');
  await expect(facts).toContainText('$5.00');
  await expect(facts).toContainText('0 paid orders of at most 10');
  await expect(page.getByRole('heading', { name: 'Buyers can use it' })).toBeVisible();

  // The share link: the product page of the one listing, with the code.
  const link = page.getByTestId('share-url');
  await expect(link).toHaveText(`${mossUrl}?code=SPRING25`);
  await page.getByRole('button', { name: 'Copy link' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Link copied to the clipboard.' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${mossUrl}?code=SPRING25`);
  await expectAccessible(page, 'discount');
  await screenshots(page, 'discount');
});

test('the API refuses fields: the errors show at their fields', async () => {
  await page.goto('/console/discounts/new');
  // Two refusals at once (a code too short, a percentage above 100).
  await page.getByLabel('Code', { exact: true }).fill('X');
  await page.getByLabel('Percent off').fill('150');
  await page.getByRole('button', { name: 'Create discount' }).click();
  const code = page.getByLabel('Code', { exact: true });
  const percent = page.getByLabel('Percent off');
  await expect(code).toHaveAttribute('aria-invalid', 'true');
  await expect(page.locator('.field', { has: code }).locator('.error')).toContainText('3 to 40');
  await expect(percent).toHaveAttribute('aria-invalid', 'true');
  await expect(page.locator('.field', { has: percent }).locator('.error')).toContainText('1 to 100');
  await expectAccessible(page, 'discount-new-errors');
  await screenshots(page, 'discount-new-errors');

  // A code the account already has, in another case.
  await code.fill('spring25');
  await percent.fill('10');
  await page.getByRole('button', { name: 'Create discount' }).click();
  await expect(page.locator('.field', { has: code }).locator('.error')).toContainText('already used');
  await expect(percent).not.toHaveAttribute('aria-invalid', 'true');

  // A fixed amount in dollars for every listing.
  await code.fill('FIVEOFF');
  await page.getByLabel('A fixed amount').check();
  await page.getByLabel('Amount off (USD)').fill('5');
  await page.getByRole('button', { name: 'Create discount' }).click();
  await expect(page.getByRole('heading', { name: 'FIVEOFF', level: 1 })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Summary' })).toContainText('$5.00 off');
  // For every listing the link is the store page.
  await expect(page.getByTestId('share-url')).toHaveText(/\/s\/[^/?]+\?code=FIVEOFF$/);
});

test('the list, an edit, turned off (the list says why) and on again', async () => {
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Discounts' }).click();
  const spring = page.getByRole('row', { name: /SPRING25/ });
  await expect(spring).toContainText('Spring newsletter');
  await expect(spring).toContainText('25% off');
  await expect(spring).toContainText('Moss field guide');
  await expect(spring).not.toContainText('Fern atlas');
  await expect(spring.locator('.badge')).toHaveText('Active');
  await expect(spring).toContainText('0 / 10');
  await expect(spring.locator('time')).toContainText('Mar 1, 2031');
  const five = page.getByRole('row', { name: /FIVEOFF/ });
  await expect(five).toContainText('$5.00 off');
  await expect(five).toContainText('All listings');
  await expect(five).toContainText('0 / no limit');
  await expect(five).toContainText('Never');
  await expectAccessible(page, 'discounts');
  await screenshots(page, 'discounts');

  await spring.getByRole('link', { name: 'Spring newsletter' }).click();
  const form = page.getByRole('form', { name: 'Edit the discount' });
  await expect(form.getByLabel('Code', { exact: true })).toHaveValue('SPRING25');
  await expect(form.getByLabel('Starts (UTC, optional)')).toBeDisabled();
  await expect(form.getByLabel('Minimum order (USD) (optional)')).toHaveValue('5.00');
  await expect(form.getByLabel('Minimum order (USD) (optional)')).toBeDisabled();
  await form.getByLabel('Name (optional)').fill('Spring newsletter 2031');
  await form.getByLabel('Percent off').fill('30');
  await form.getByLabel('Most paid orders (optional)').fill('20');
  await form.getByLabel('Fern atlas').check();
  await form.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Saved.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Spring newsletter 2031', level: 1 })).toBeVisible();
  const facts = page.getByRole('region', { name: 'Summary' });
  await expect(facts).toContainText('30% off');
  await expect(facts).toContainText('Fern atlas');
  await expect(facts).toContainText('of at most 20');
  // Two listings: the link is the store page now.
  await expect(page.getByTestId('share-url')).toHaveText(/\/s\/[^/?]+\?code=SPRING25$/);
  // A limit the API refuses is shown at its field.
  await form.getByLabel('Most paid orders (optional)').fill('0');
  await form.getByRole('button', { name: 'Save changes' }).click();
  await expect(form.getByLabel('Most paid orders (optional)')).toHaveAttribute('aria-invalid', 'true');
  await expect(form.locator('.field', { has: page.getByLabel('Most paid orders (optional)') }).locator('.error')).toContainText('at least 1');
  await form.getByLabel('Most paid orders (optional)').fill('20');

  await page.getByRole('button', { name: 'Turn off' }).click();
  await expect(page.locator('.page-head .badge')).toHaveText('Turned off');
  await expect(page.getByRole('heading', { name: 'Buyers cannot use it now' })).toBeVisible();
  await expect(page.locator('.checklist')).toContainText('Turn the discount code back on');
  await expectAccessible(page, 'discount-disabled');
  await screenshots(page, 'discount-disabled');
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Discounts' }).click();
  const off = page.getByRole('row', { name: /SPRING25/ });
  await expect(off.locator('.badge')).toHaveText('Turned off');
  await expect(off).toContainText('Turn the discount code back on');
  await expectAccessible(page, 'discounts-with-disabled');
  await screenshots(page, 'discounts-with-disabled');
  await page.getByLabel('Status').selectOption('DISABLED');
  await expect(page.getByRole('row', { name: /FIVEOFF/ })).toHaveCount(0);
  await expect(off).toBeVisible();
  await page.getByLabel('Status').selectOption('');

  // Turned on again from its readiness action.
  await off.getByRole('link').first().click();
  await page.getByRole('button', { name: 'Turn the code on' }).click();
  await expect(page.locator('.page-head .badge')).toHaveText('Active');
  await expect(page.getByRole('heading', { name: 'Buyers can use it' })).toBeVisible();
  await page.getByRole('button', { name: 'Turn off' }).click();
  await expect(page.locator('.page-head .badge')).toHaveText('Turned off');
  await page.getByRole('button', { name: 'Turn on' }).click();
  await expect(page.locator('.page-head .badge')).toHaveText('Active');
});

test('delete a discount, after confirming', async () => {
  await page.goto('/console/discounts');
  await page.getByRole('row', { name: /FIVEOFF/ }).getByRole('link').click();
  let asked = '';
  page.once('dialog', (d) => {
    asked = d.message();
  });
  await page.getByRole('button', { name: 'Delete' }).click();
  await expect(page).toHaveURL(/\/console\/discounts\?deleted=FIVEOFF$/);
  expect(asked).toContain('Delete the discount code FIVEOFF?');
  await expect(page.getByText('Deleted the discount code FIVEOFF.')).toBeVisible();
  await expect(page.getByRole('row', { name: /FIVEOFF/ })).toHaveCount(0);
  await expect(page.getByRole('row', { name: /SPRING25/ })).toBeVisible();
});

test('pay what you want: minimum, suggested and maximum saved and shown', async () => {
  await page.goto('/console/listings/new');
  await page.getByLabel('Title').fill('Zine of lichens');
  await page.getByLabel('Pay what you want').check();
  await page.getByLabel('Minimum price (USD)').fill('0');
  await page.getByLabel('Suggested price (USD) (optional)').fill('80');
  await page.getByLabel('Maximum price (USD) (optional)').fill('50');
  const deliverables = page.getByRole('group', { name: 'New deliverable' });
  await deliverables.getByLabel('Deliverable type').selectOption('TEXT');
  await deliverables.getByLabel('Text').fill('Your zine: https://example.com/zine.pdf');
  await deliverables.getByRole('button', { name: 'Add deliverable' }).click();
  await page.getByRole('button', { name: 'Create listing' }).click();
  // The API's refusal at its field: a suggestion above the maximum.
  const suggested = page.getByLabel('Suggested price (USD) (optional)');
  await expect(suggested).toHaveAttribute('aria-invalid', 'true');
  await expect(page.locator('.field', { has: suggested }).locator('.error')).toContainText('maximum_price');
  await expectAccessible(page, 'listing-new-pwyw');
  await screenshots(page, 'listing-new-pwyw');

  await suggested.fill('8');
  await page.getByRole('button', { name: 'Create listing' }).click();
  await expect(page).toHaveURL(/\/console\/listings\/lst_/);
  const pricing = page.getByTestId('pricing');
  await expect(pricing).toContainText('Free, or pay what you want');
  await expect(pricing).toContainText('$8.00');
  await expect(pricing).toContainText('$50.00');
  await page.reload();
  await expect(page.getByLabel('Pay what you want')).toBeChecked();
  await expect(page.getByLabel('Minimum price (USD)')).toHaveValue('0.00');
  await expect(page.getByLabel('Suggested price (USD) (optional)')).toHaveValue('8.00');
  await expect(page.getByLabel('Maximum price (USD) (optional)')).toHaveValue('50.00');

  // A minimum of $3, and no maximum: the default again.
  await page.getByLabel('Minimum price (USD)').fill('3');
  await page.getByLabel('Maximum price (USD) (optional)').fill('');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Saved.')).toBeVisible();
  await expect(pricing).toContainText('$3.00 or more');
  await expect(pricing).toContainText('No maximum');
  await page.getByRole('button', { name: 'Publish' }).first().click();
  await expect(page.locator('.page-head .badge')).toHaveText('published');
  await expectAccessible(page, 'listing-pwyw');
  await screenshots(page, 'listing-pwyw');

  await page.goto('/console/listings');
  await expect(page.getByRole('row', { name: /Zine of lichens/ })).toContainText('$3.00 or more');
  await expect(page.getByRole('row', { name: /Moss field guide/ })).toContainText('$12.00');
});

test('an order that used the code: subtotal, discount and amount', async ({ browser, baseURL, request }) => {
  // A buyer opens the code's link, sees the code applied, and buys with it.
  const buyer = await browser.newContext({ baseURL });
  const shop = await buyer.newPage();
  await shop.goto(`${mossUrl}?code=SPRING25`);
  await expect(shop.getByText(/Code SPRING25 applied/)).toBeVisible();
  await shop.getByLabel(/email/i).fill('reader@example.com');
  await shop.getByRole('button', { name: 'Buy for $8.40' }).click();
  await shop.getByRole('button', { name: 'Continue' }).click();
  await expect(shop).toHaveURL(/thank-you/);
  await buyer.close();
  const orders = await request.get(`/v1/orders?listing=${mossId}`, { headers: { Authorization: `Bearer ${key}` } });
  const bought = (await orders.json()).data[0];
  orderId = bought.id;
  expect([bought.subtotal, bought.discount?.id, bought.discount?.code, bought.discount?.amount, bought.amount]).toEqual([1200, springId, 'SPRING25', 360, 840]);

  await page.goto('/console/orders');
  const row = page.getByRole('row', { name: /Moss field guide/ });
  await expect(row).toContainText('$8.40');
  await expect(row).toContainText('with SPRING25');
  await screenshots(page, 'orders-discount');
  await row.getByRole('link').click();
  const summary = page.getByRole('region', { name: 'Summary' });
  await expect(summary).toContainText('Subtotal');
  await expect(summary).toContainText('$12.00');
  await expect(page.getByTestId('order-discount')).toHaveText('SPRING25 −$3.60');
  await expect(summary).toContainText('$8.40');
  await expectAccessible(page, 'order-discount');
  await screenshots(page, 'order-discount');

  // Used once: the code, type and amount are frozen, and say why.
  await page.getByTestId('order-discount').getByRole('link', { name: 'SPRING25' }).click();
  await expect(page.getByRole('region', { name: 'Summary' })).toContainText('1 paid order of at most 20');
  const form = page.getByRole('form', { name: 'Edit the discount' });
  await expect(form.getByLabel('Code', { exact: true })).toBeDisabled();
  await expect(form.getByLabel('Percent off')).toBeDisabled();
  await expect(form).toContainText('Paid orders have used this code (1)');
  await expectAccessible(page, 'discount-used');
  await screenshots(page, 'discount-used');
  // What may still change, changes.
  await form.getByLabel('Most uses per buyer (optional)').fill('2');
  await form.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Saved.')).toBeVisible();

  // Deleted, the order keeps its discount, no longer linked.
  await page.getByRole('button', { name: 'Delete' }).click();
  await expect(page).toHaveURL(/deleted=SPRING25/);
  await page.goto(`/console/orders/${orderId}`);
  await expect(page.getByTestId('order-discount')).toContainText('SPRING25 (a deleted discount) −$3.60');
  await expect(page.getByTestId('order-discount').getByRole('link')).toHaveCount(0);
});

test('a chosen listing deleted since: shown, then dropped from the code on saving', async ({ request }) => {
  const headers = { Authorization: `Bearer ${key}` };
  const doomed = await request.post('/v1/listings', { headers, data: { title: 'Withdrawn print', price: 900 } });
  const doomedId = (await doomed.json()).id;
  const created = await request.post('/v1/discounts', {
    headers,
    data: { code: 'GONE10', type: 'percentage', percent_off: 10, listing_ids: [mossId, doomedId] },
  });
  expect(created.status(), await created.text()).toBe(201);
  expect((await request.delete(`/v1/listings/${doomedId}`, { headers })).status()).toBe(204);

  await page.goto('/console/discounts');
  await expect(page.getByRole('row', { name: /GONE10/ })).toContainText('Moss field guide, a deleted listing');
  await page.getByRole('link', { name: 'GONE10' }).click();
  await expect(page.getByRole('region', { name: 'Summary' })).toContainText(`Deleted listing ${doomedId}`);
  await expect(page.getByTestId('dropped-listings')).toContainText(doomedId);
  await expect(page.getByRole('group', { name: /Chosen listings/ })).toContainText('1 chosen');
  await page.getByLabel('Name (optional)').fill('Moss only');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Saved.')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Summary' })).not.toContainText('Deleted listing');
  await expect(page.getByTestId('dropped-listings')).toHaveCount(0);
});

test('no script error on the console pages', async () => {
  expect(consoleErrors).toEqual([]);
});
