// Agent connections (CONTRACT §25): the home screen's offer_to_agents
// action leads to the Agents screen; a connection is created there with its
// token and webhook secret shown once (copy buttons, "shown once"), then
// disabled, enabled and deleted with a confirmation.
import { test, expect, type BrowserContext, type Page } from '@playwright/test';
import { expectAccessible, screenshots, signUpAndConnect } from './helpers';

test.describe.configure({ mode: 'serial' });

const email = `agents-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
let context: BrowserContext;
let page: Page;
let token = '';
let webhookSecret = '';
const dialogs: string[] = [];

test.beforeAll(async ({ browser, baseURL }) => {
  context = await browser.newContext({ baseURL });
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  page = await context.newPage();
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.accept();
  });
});

test.afterAll(async () => {
  await context?.close();
});

test('the home screen offers the store to agents once a listing is on sale', async ({ request }) => {
  const key = await signUpAndConnect(page, request, email, 'Agent Friendly Shop');
  const auth = { Authorization: `Bearer ${key}` };
  const created = await request.post('/v1/listings', { headers: auth, data: { title: 'Field notes', price: 900 } });
  expect(created.status()).toBe(201);
  const { id } = await created.json();
  await request.post(`/v1/listings/${id}/deliverables`, { headers: auth, data: { type: 'text', value: 'Thank you.' } });
  expect((await request.post(`/v1/listings/${id}/publish`, { headers: auth })).status()).toBe(200);

  await page.goto('/console/');
  const offer = page.locator('.checklist li', { hasText: 'Agentic Commerce Protocol' });
  await expect(offer).toContainText('suggested');
  await offer.getByRole('link', { name: 'Connect an agent platform' }).click();
  await expect(page).toHaveURL(/\/console\/agents$/);
  await expect(page.getByRole('heading', { name: 'Agents', level: 1 })).toBeVisible();
  await expect(page.getByText('No agent connections yet')).toBeVisible();
  await expectAccessible(page, 'agents-empty');
});

test('create a connection and see its token and webhook secret once', async () => {
  await page.getByRole('button', { name: 'Create connection' }).click();
  await expect(page.getByLabel('Platform name')).toHaveAttribute('aria-invalid', 'true');

  await page.getByLabel('Platform name').fill('Shopping Assistant');
  await page.getByLabel('Webhook URL').fill('https://agents.example.com/acp/webhooks');
  await page.getByRole('button', { name: 'Create connection' }).click();

  const once = page.getByRole('region', { name: 'Give these to Shopping Assistant' });
  await expect(once).toBeVisible();
  await expect(once).toContainText('Shown once');
  token = (await page.getByTestId('agent-token').textContent())!;
  webhookSecret = (await page.getByTestId('agent-webhook-secret').textContent())!;
  expect(token).toMatch(/^acp_[0-9A-Za-z]{40}$/);
  expect(webhookSecret).toMatch(/^whsec_/);
  await once.getByRole('button', { name: 'Copy: token' }).click();
  await expect(once.getByRole('button', { name: 'Copied: token' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
  await once.getByRole('button', { name: 'Copy: webhook secret' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(webhookSecret);

  const card = page.getByRole('article', { name: 'Connection Shopping Assistant' });
  await expect(card).toContainText('https://agents.example.com/acp/webhooks');
  await expect(card.locator('.badge')).toHaveText('active');
  await expect(card).toContainText('Never');
  await expect(card).toContainText('No deliveries yet');
  await expectAccessible(page, 'agents-created');
  await screenshots(page, 'agents-created');

  // Shown once: gone once dismissed, and never again after a reload.
  await page.getByRole('button', { name: 'I have stored them' }).click();
  await expect(page.getByTestId('agent-token')).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('article', { name: 'Connection Shopping Assistant' })).toBeVisible();
  await expect(page.locator('body')).not.toContainText(token);
  await expect(page.locator('body')).not.toContainText(webhookSecret);

  // The home screen no longer offers it.
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Home' }).click();
  await expect(page.getByRole('heading', { name: 'Home' })).toBeVisible();
  await expect(page.locator('main')).not.toContainText('Agentic Commerce Protocol');
});

test('disable, enable and delete a connection', async () => {
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Agents' }).click();
  const card = page.getByRole('article', { name: 'Connection Shopping Assistant' });
  await card.getByRole('button', { name: 'Disable' }).click();
  await expect(card.getByText('Disabled: the token is refused from now on.')).toBeVisible();
  await expect(card.locator('.badge')).toHaveText('disabled');
  await expect(card).toContainText('no order events are sent');
  await expectAccessible(page, 'agents-disabled');
  await screenshots(page, 'agents');

  await card.getByRole('button', { name: 'Enable' }).click();
  await expect(card.locator('.badge')).toHaveText('active');

  await card.getByRole('button', { name: 'Delete' }).click();
  expect(dialogs.at(-1)).toContain('Delete the connection Shopping Assistant?');
  await expect(page.getByText('No agent connections yet')).toBeVisible();
  await expect(page.getByRole('article', { name: 'Connection Shopping Assistant' })).toHaveCount(0);
});
