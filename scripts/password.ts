// `npm run password -- EMAIL`: sets a dashboard user's password from a shell (the new password is read from
// PASSWORD, else generated and printed once), and ends every session of that user (issue 22: a session version on the
// user, bumped). With the embedded database the service must be stopped first (one process per DATA_DIR).
import { randomBytes } from 'node:crypto'
import { changePassword } from '@/lib/auth/session-version'
import { getDatabase } from '@/lib/db/client'

async function main() {
  const email = process.argv[2]?.trim().toLowerCase()
  if (!email) {
    console.error('Usage: [PASSWORD=...] npm run password -- EMAIL')
    process.exit(2)
  }
  const db = await getDatabase()
  const user = await db.prisma.user.findUnique({ where: { email } })
  if (!user) {
    console.error(`No user ${email}.`)
    process.exit(1)
  }
  const given = process.env.PASSWORD
  const password = given ?? randomBytes(12).toString('base64url')
  await changePassword(user.id, password)
  console.log(`The password of ${email} is changed, and every session of this user has ended.`)
  if (!given) console.log(`The new password is shown this once:\n\n  ${password}\n`)
  await db.close()
}

main().catch(error => {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
})
