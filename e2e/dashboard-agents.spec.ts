import { expect, test } from '@playwright/test'
import { signIn } from './support/auth'
import { auth, createDatastore, unique } from './support/dashboard'

test('an admin creates an agent linked to a datastore, edits it, and deletes it after confirming', async ({ page, request }) => {
  const store = await createDatastore(request, unique('Manuals'))
  const name = unique('Support agent')
  await signIn(page)

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Agents' }).click()
  await page.getByRole('link', { name: 'New agent' }).first().click()
  await expect(page).toHaveURL(/\/agents\/new$/)

  await page.getByLabel('Name').fill(name)
  await page.getByLabel('Description').fill('Answers questions about our manuals')
  await page.getByRole('combobox', { name: 'Model' }).click()
  await page.getByRole('option', { name: 'GPT-4', exact: true }).click()
  // the temperature slider, by keyboard: 0 → 0.3 in steps of 0.05
  await page.getByRole('slider', { name: 'Temperature' }).focus()
  for (let i = 0; i < 6; i++) await page.keyboard.press('ArrowRight')
  await expect(page.getByTestId('temperature-value')).toHaveText('0.30')
  await page.getByRole('switch', { name: 'Public' }).click()
  await page.getByLabel('System prompt').fill('You answer from the manuals only.\n{context}')
  await page.getByLabel('User prompt').fill('Question: {query}')
  await page.getByRole('checkbox', { name: store.name }).click()
  await page.getByRole('button', { name: 'Create agent' }).click()

  await expect(page).toHaveURL(/\/agents\/(?!new$)[^/]+$/)
  const id = page.url().split('/').pop()!
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible()
  const created = await (await request.get(`/api/agents/${id}`, { headers: auth })).json()
  expect(created).toMatchObject({
    name,
    description: 'Answers questions about our manuals',
    modelName: 'model_4',
    temperature: 0.3,
    visibility: 'public',
    systemPrompt: 'You answer from the manuals only.\n{context}',
    userPrompt: 'Question: {query}',
    datastoreIds: [store.id],
  })

  // the list shows its model, visibility and datastore
  await page.getByRole('link', { name: 'Agents', exact: true }).first().click()
  const row = page.getByTestId('agent-row').filter({ hasText: name })
  await expect(row).toContainText('GPT-4')
  await expect(row).toContainText('public')
  await expect(row).toContainText(store.name)

  // edit
  await row.getByRole('link', { name, exact: true }).click()
  await page.getByLabel('Name').fill(`${name} v2`)
  await page.getByRole('switch', { name: 'Public' }).click()
  await page.getByRole('button', { name: 'Save changes' }).click()
  await expect(page.getByRole('heading', { level: 1, name: `${name} v2` })).toBeVisible()
  const edited = await (await request.get(`/api/agents/${id}`, { headers: auth })).json()
  expect(edited).toMatchObject({ name: `${name} v2`, visibility: 'private', datastoreIds: [store.id] })
  // the saved notice may still be up: it lies at the bottom of the screen, away from the page's actions (at the top
  // right it covered Delete, and a pointer resting on it kept it there)

  // delete, after a confirmation that can be cancelled
  await page.getByRole('button', { name: 'Delete', exact: true }).click()
  await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel' }).click()
  expect((await request.get(`/api/agents/${id}`, { headers: auth })).status()).toBe(200)
  await page.getByRole('button', { name: 'Delete', exact: true }).click()
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click()
  await expect(page).toHaveURL(/\/agents$/)
  await expect(page.getByTestId('agent-row').filter({ hasText: name })).toHaveCount(0)
  expect((await request.get(`/api/agents/${id}`, { headers: auth })).status()).toBe(404)
})

test('the agent form shows what is wrong beside each field and sends nothing until it is fixed', async ({ page }) => {
  await signIn(page)
  await page.goto('/agents/new')
  let posted = 0
  page.on('request', r => {
    if (r.method() === 'POST' && r.url().endsWith('/api/agents')) posted++
  })
  await page.getByLabel('Description').fill('x'.repeat(2001))
  await page.getByRole('button', { name: 'Create agent' }).click()
  await expect(page.getByText('Give the agent a name')).toBeVisible()
  await expect(page.getByText('At most 2,000 characters')).toBeVisible()
  await expect(page.getByLabel('Name')).toHaveAttribute('aria-invalid', 'true')
  await expect(page.getByLabel('Name')).toBeFocused()
  expect(posted).toBe(0)

  await page.getByLabel('Name').fill(unique('Fixed agent'))
  await page.getByLabel('Description').fill('Now short')
  await expect(page.getByText('Give the agent a name')).toHaveCount(0)
  await page.getByRole('button', { name: 'Create agent' }).click()
  await expect(page).toHaveURL(/\/agents\/(?!new$)[^/]+$/)
  expect(posted).toBe(1)
})

test('the agent page shows a copyable iframe snippet of its public chat page', async ({ page, context, request, baseURL }) => {
  const res = await request.post('/api/agents', { headers: auth, data: { name: unique('Embedded'), visibility: 'public' } })
  const agent = await res.json()
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL })
  await signIn(page)
  await page.goto(`/agents/${agent.id}`)
  const snippet = page.getByTestId('embed-snippet')
  await expect(snippet).toHaveValue(new RegExp(`^<iframe src="${baseURL}/chat/${agent.id}" `))
  await page.getByRole('button', { name: 'Copy the iframe snippet' }).click()
  await expect(page.getByText('Copied to the clipboard')).toBeVisible()
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await snippet.inputValue())
})
