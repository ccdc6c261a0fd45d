import { expect, test } from '@playwright/test'
import { startFakeNotion } from '../tests/helpers/fake-notion'
import { buildWorkspace } from '../tests/helpers/notion-workspace'
import { ADMIN, signIn } from './support/auth'
import { FAKE_MODEL } from './support/dashboard'

// README "Notion": an admin connects a Notion integration on the Connections page (its token never shown again),
// adds a Notion page to a datastore by pasting its address, and its pages become searchable content.
test('an admin connects Notion, adds a page by its address, and its sub-pages and database rows are synched', async ({ page, request }) => {
  const notion = await startFakeNotion()
  const ws = buildWorkspace(notion)
  await request.post(`${FAKE_MODEL}/__notion`, { data: { url: notion.url } })
  try {
    await signIn(page)
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Connections' }).click()
    await expect(page).toHaveURL(/\/connections/)
    await page.getByRole('button', { name: 'Connect Notion' }).click()
    await page.getByLabel('Name').fill('Support docs')
    await page.getByLabel('Internal Integration Secret').fill('ntn_wrong_token_0000000000')
    await page.getByRole('button', { name: 'Create', exact: true }).click()
    await expect(page.getByText(/Notion refused this token \(401\)/)).toBeVisible()
    await page.getByLabel('Internal Integration Secret').fill(notion.token)
    await page.getByRole('button', { name: 'Create', exact: true }).click()
    const row = page.getByTestId('connection-row').filter({ hasText: 'Support docs' })
    await expect(row).toBeVisible()
    await expect(page.locator('body')).not.toContainText(notion.token)

    const auth = { authorization: `Bearer ${ADMIN.apiKey}` }
    const store = await (await request.post('/api/datastores', { headers: auth, data: { name: `notion ${Date.now()}` } })).json()
    await page.goto(`/datastores/${store.id}`)
    await page.getByRole('tab', { name: 'Notion' }).click()
    await expect(page.getByLabel('Connection')).toHaveValue(/\w+/)
    await page.getByLabel('Page or database address').fill('https://www.notion.so/acme/not-a-page')
    await page.getByRole('button', { name: 'Add from Notion' }).click()
    await expect(page.getByText(/Paste the address of a Notion page or database/)).toBeVisible()
    await page.getByLabel('Page or database address').fill(`https://www.notion.so/acme/Help-center-${ws.root}?pvs=4`)
    await page.getByRole('button', { name: 'Add from Notion' }).click()

    // named by its root page's title once found (children are listed only when it is opened)
    const group = page.getByRole('row').filter({ hasText: 'Help center' }).first()
    await expect(group.getByText('Synced')).toBeVisible({ timeout: 60_000 })
    await group.getByRole('button', { name: /Show the pages of/ }).click()
    for (const title of ['Help center', 'Warranty', 'Descaling', 'Can I return a kettle?']) {
      await expect(page.getByRole('row').filter({ hasText: title }).first()).toBeVisible()
    }
    const fragments = await (await request.post(`/api/datastores/${store.id}/query`, { headers: auth, data: { query: 'white vinegar descale', topK: 1 } })).json()
    expect(fragments[0]).toMatchObject({ text: expect.stringContaining('white vinegar'), source: expect.stringContaining('https://www.notion.so/') })
  } finally {
    await request.post(`${FAKE_MODEL}/__notion`, { data: {} })
    await notion.close()
  }
})
