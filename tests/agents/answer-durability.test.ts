import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { expect, test } from 'vitest'
import { openPglite } from '@/lib/db/client'
import { useFakeModel } from '../helpers/agents'

// Issue 28: the embedded database runs in a thread of its own, answering the web side by messages. An answer the
// visitor has seen whole (its endpoint_response carries the message's id) must be on disk by then: a server killed
// with SIGKILL at that moment keeps the question and the answer.

const model = useFakeModel()
const ROOT = path.resolve(import.meta.dirname, '../..')

function runChild(dataDir: string): Promise<{ answered: Record<string, string>; kill(): Promise<void> }> {
  const child = spawn(process.execPath, ['--conditions=react-server', '--import', 'tsx', 'scripts/reliability/answer-child.ts'], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, WORKER: 'off', LOG_LEVEL: 'error' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const exited = new Promise<void>(resolve => child.on('exit', () => resolve()))
  let output = ''
  child.stderr!.on('data', data => (output += data))
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', data => {
      output += data
      for (const line of String(data).split('\n').filter(Boolean)) {
        const event = JSON.parse(line)
        if (event.event === 'answered') {
          child.kill('SIGKILL') // at once: before anything after the answer can run
          resolve({ answered: event, kill: () => exited })
        } else if (event.event === 'failed' || event.event === 'stream ended') reject(new Error(`the child ${event.event}: ${output}`))
      }
    })
    child.on('exit', code => reject(new Error(`the child exited (${code}) before answering: ${output}`)))
  })
}

test.skipIf(process.env.TEST_DATABASE === 'postgres')('a server killed with SIGKILL right after an answer streamed keeps the question and the answer', { timeout: 120_000 }, async () => {
  const reply = 'The warranty lasts two years from the date of purchase.'
  model.fake.setBehaviour({ reply, delayMs: 1 })
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ads-durability-'))
  try {
    const { answered, kill } = await runChild(dataDir)
    await kill()
    expect(answered.answer).toBe(reply)

    const reopened = await openPglite(dataDir)
    try {
      const messages = await reopened.prisma.message.findMany({ where: { conversationId: answered.conversationId }, orderBy: { createdAt: 'asc' } })
      expect(messages.map(m => [m.role, m.text])).toEqual([
        ['user', 'How long is the warranty?'],
        ['assistant', reply],
      ])
      expect(messages[1].id).toBe(answered.messageId)
    } finally {
      await reopened.close()
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
})
