import { expect, type Page } from '@playwright/test'

export const ADMIN = { email: 'admin@example.com', password: 'e2e-password-123', apiKey: 'ads_e2e_initial_key_0123456789' }

export async function signIn(page: Page) {
  await page.goto('/login')
  await page.getByLabel('Email').fill(ADMIN.email)
  await page.getByLabel('Password').fill(ADMIN.password)
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  await expect(page).not.toHaveURL(/\/login/)
}
