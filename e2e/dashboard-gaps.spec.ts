import { expect, test } from '@playwright/test'
import { signIn } from './support/auth'
import { createAgent, createDatastore, fakeModel, upsertText, waitUntilSynched } from './support/dashboard'
import { ask, expectNoSidewaysScroll, seriousViolations, vote } from './support/inbox'

// The knowledge-gap queue (issue 15): a question that found no source and an answer voted down are queued; "add an
// answer" puts the answer in a datastore, and the next identical question finds it; "dismiss" empties the queue.

const NO_SOURCE_QUESTION = 'Can I pay with seashells at the counter?'
const VOTED_DOWN_QUESTION = 'How long is the Aurora kettle warranty?'

test('the gap queue shows a no-source question and a voted-down answer; "add an answer" makes the next identical question find it', async ({ page, request }) => {
  test.setTimeout(120_000)
  await fakeModel(request, { reply: 'I am not sure.', delayMs: 0 })
  const store = await createDatastore(request)
  await upsertText(request, store.id, [{ name: 'warranty.md', text: 'The Aurora kettle carries a warranty of two years.' }])
  await waitUntilSynched(request, store.id, 1)
  const agent = await createAgent(request, { datastoreIds: [store.id], minScore: 0.35 })
  const noSource = await ask(request, agent.id, NO_SOURCE_QUESTION)
  expect(noSource.sources).toEqual([])
  const wrong = await ask(request, agent.id, VOTED_DOWN_QUESTION)
  await vote(request, wrong, 'bad', 'It is three years since May')

  await signIn(page)
  await page.goto('/gaps')
  const noSourceGroup = page.getByTestId('gap-group').filter({ hasText: NO_SOURCE_QUESTION })
  const votedGroup = page.getByTestId('gap-group').filter({ hasText: VOTED_DOWN_QUESTION })
  await expect(noSourceGroup).toContainText('No sources')
  await expect(votedGroup).toContainText('Voted down')
  await votedGroup.getByText('The answers given').click()
  await expect(votedGroup).toContainText('It is three years since May')
  expect(await seriousViolations(page)).toEqual([])

  await noSourceGroup.getByTestId('gap-add-answer').click()
  const form = noSourceGroup.getByTestId('add-answer-form')
  await form.getByLabel('Answer').fill('No: we take cards and cash in euros only, never seashells.')
  await form.getByLabel('Add to datastore').selectOption({ label: store.name })
  await form.getByTestId('gap-answer-save').click()
  await expect(page.getByTestId('gap-group').filter({ hasText: NO_SOURCE_QUESTION })).toHaveCount(0)

  await votedGroup.getByTestId('gap-dismiss').click()
  await expect(page.getByTestId('gap-group').filter({ hasText: VOTED_DOWN_QUESTION })).toHaveCount(0)

  // the answer is synched like any document, then found by the same question
  await waitUntilSynched(request, store.id, 2)
  const again = await ask(request, agent.id, NO_SOURCE_QUESTION)
  expect(again.sources.map(s => s.text).join(' ')).toContain('never seashells')

  await page.setViewportSize({ width: 390, height: 844 })
  await page.reload()
  await expect(page.getByRole('heading', { name: 'Knowledge gaps' })).toBeVisible()
  await expectNoSidewaysScroll(page)
})
