// The account page's calls to the API, by the endpoints' declarations (components/api-client.ts).
import { api } from '@/components/api-client'

export const readAccount = () => api('GET /api/account')
export const changePassword = (currentPassword: string, newPassword: string) => api('POST /api/account/password', { body: { currentPassword, newPassword } })
export const setPasswordWithLink = (token: string, password: string) => api('POST /api/password-resets/{token}', { params: { token }, body: { password } })
