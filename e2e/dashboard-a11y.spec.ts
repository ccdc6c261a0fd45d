import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'
import { signIn } from './support/auth'
import { mainPages, makeSupportData, type SupportData } from './support/realistic-data'

// axe-core on every main page of the dashboard (issue 15, defect 10), with realistic data and in the states a user
// sees (the datastore's content tab with its dropzone and an Error badge, the playground with its settings): no
// serious or critical violation (WCAG 2.1 A and AA rules, and axe's best practices).

let data: SupportData

test.beforeAll(async ({ request }) => {
  data = await makeSupportData(request, { count: 12, datastoreName: 'Borealis toasters — service manuals and FAQ' })
})

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze()
  return results.violations
    .filter(v => v.impact === 'serious' || v.impact === 'critical')
    .map(v => `${v.impact} ${v.id}: ${v.help}\n    ${v.nodes.map(n => n.target.join(' ')).slice(0, 5).join('\n    ')}`)
}

for (const width of [1280, 390]) {
  test(`no serious or critical axe violation on any main page at ${width} px`, async ({ page }) => {
    test.setTimeout(180_000)
    await page.setViewportSize({ width, height: 900 })
    await signIn(page)
    const found: string[] = []
    for (const [name, path] of mainPages(data)) {
      const res = await page.goto(path)
      if (res?.status() === 404) continue
      await page.waitForLoadState('networkidle')
      await expect(page.locator('[aria-busy="true"]')).toHaveCount(0)
      for (const v of await seriousViolations(page)) found.push(`${name} (${path}): ${v}`)
    }
    expect(found, found.join('\n')).toEqual([])
  })
}

test('the playground with an answer, and the datastore with a failure shown, have no serious violation', async ({ page }) => {
  await signIn(page)
  await page.goto(`/playground?agent=${data.agentId}`)
  await page.getByLabel('Your question').fill('How long is the kettle warranty?')
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('assistant-message').last()).toHaveAttribute('data-status', 'done')
  expect(await seriousViolations(page)).toEqual([])

  await page.goto(`/datastores/${data.datastoreId}`)
  await page.getByRole('button', { name: /Error: show the reason/ }).first().click()
  await expect(page.getByTestId('datasource-error')).toBeVisible()
  expect(await seriousViolations(page)).toEqual([])
})
