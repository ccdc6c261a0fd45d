import { expect, test } from '@playwright/test'
import { signIn } from './support/auth'
import { createDatastore, unique } from './support/dashboard'

// Issue 24: an admin invites from the Members page; the invitee opens the link in a browser of their own, chooses a
// password, and lands in the dashboard with the invited role (a viewer sees no "New datastore" and no admin pages).

test('an invited viewer sets a password from the link and sees the dashboard as a viewer', async ({ page, browser, request }) => {
  const store = await createDatastore(request, unique('Team docs'))
  await signIn(page)
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Members' }).click()
  const email = `viewer-${Date.now()}@example.com`
  await page.getByLabel('Email').fill(email)
  await page.getByRole('combobox', { name: 'Role of the invitee' }).click()
  await page.getByRole('option', { name: 'viewer' }).click()
  await page.getByRole('button', { name: 'Invite' }).click()
  const link = await page.getByTestId('invitation-link').inputValue()
  // on the address the admin's browser used
  expect(link.startsWith(`${new URL(page.url()).origin}/invite/inv_`), link).toBe(true)
  await expect(page.getByTestId('invitation-row').filter({ hasText: email })).toContainText('viewer')

  const context = await browser.newContext()
  const invitee = await context.newPage()
  await invitee.goto(link)
  await expect(invitee.getByText(`${email} is invited as viewer`)).toBeVisible()
  await invitee.getByLabel('Your name').fill('Vera Viewer')
  await invitee.getByLabel('Choose a password').fill('viewer password 123')
  await invitee.getByRole('button', { name: 'Join and sign in' }).click()
  await expect(invitee).toHaveURL(/\/agents$/)
  await expect(invitee.getByTestId('signed-in-email')).toHaveText(email)

  await invitee.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Datastores' }).click()
  await expect(invitee.getByRole('heading', { name: 'Datastores', exact: true })).toBeVisible()
  // a viewer reads the organization's datastores, and cannot make one
  await expect(invitee.getByText(store.name)).toBeVisible()
  await expect(invitee.getByRole('button', { name: 'New datastore' })).toHaveCount(0)
  await expect(invitee.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API keys' })).toHaveCount(0)
  // inside the datastore: its content is listed, nothing to add, change or delete
  await invitee.getByRole('link', { name: store.name }).click()
  await expect(invitee.getByRole('heading', { name: store.name })).toBeVisible()
  await expect(invitee.getByRole('heading', { name: 'Add content' })).toHaveCount(0)
  // the API holds the line too, whatever the page shows
  const refused = await invitee.request.post(new URL('/api/datastores', link).href, { data: { name: 'by a viewer' }, headers: { origin: new URL(link).origin } })
  expect(refused.status()).toBe(403)

  // the link worked once
  await invitee.goto(link)
  await expect(invitee.getByText('This invitation has already been accepted')).toBeVisible()
  await context.close()

  await page.reload()
  await expect(page.getByTestId('member-row').filter({ hasText: email }).getByTestId('member-role')).toContainText('viewer')
  await expect(page.getByTestId('invitation-row').filter({ hasText: email })).toHaveCount(0)
})

test("a member of two organizations switches between them in the navigation, each showing its own datastores", async ({ page, request }) => {
  const store = await createDatastore(request, unique('First org docs'))
  await signIn(page)
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Datastores' }).click()
  await expect(page.getByText(store.name)).toBeVisible()

  const second = unique('Second org')
  await page.getByTestId('organization-switcher').first().click()
  await page.getByRole('option', { name: 'New organization…' }).click()
  await page.getByLabel('Name').fill(second)
  await page.getByRole('button', { name: 'Create and switch' }).click()
  await expect(page).toHaveURL(/\/agents$/)
  await expect(page.getByTestId('organization-switcher').first()).toContainText(second)
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Datastores' }).click()
  await expect(page.getByText('No datastores yet')).toBeVisible()
  await expect(page.getByText(store.name)).toHaveCount(0)

  await page.getByTestId('organization-switcher').first().click()
  await page.getByRole('option', { name: /My organization/ }).click()
  await expect(page).toHaveURL(/\/agents$/)
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Datastores' }).click()
  await expect(page.getByText(store.name)).toBeVisible()
})
