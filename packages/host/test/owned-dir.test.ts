import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { makeOwnedDir, sweepDeadOwners } from '@inferpool/host/internal'

const parent = mkdtempSync(join(tmpdir(), 'inferpool-owned-test-'))
afterAll(() => rmSync(parent, { recursive: true, force: true }))

/** Rewrites a directory's owner file to name `pid` (in this process's namespace). */
function ownedBy(dir: string, pid: number): void {
  const [namespace] = readFileSync(join(dir, '.owner'), 'utf8').split(' ')
  rmSync(join(dir, '.owner'))
  writeFileSync(join(dir, '.owner'), `${namespace} ${pid}`)
}

describe('owned temporary directories', () => {
  it('says whose it is, and a sweep keeps the directories of live owners', async () => {
    const dir = await makeOwnedDir(parent, 'x-')
    expect(readFileSync(join(dir, '.owner'), 'utf8')).toMatch(new RegExp(` ${process.pid}$`))
    await sweepDeadOwners(parent, 'x-')
    expect(existsSync(dir)).toBe(true)
  })

  it('sweeps the directory of an owner that exited and was not reaped (a zombie), as of one that is gone', async () => {
    // `sleep 0` exits at once; its parent becomes `sleep 60` (exec), which never reaps it.
    const parentProcess = spawn('sh', ['-c', 'sleep 0 & echo $!; exec sleep 60'], { stdio: ['ignore', 'pipe', 'ignore'] })
    try {
      const pid = Number(
        await new Promise<string>((resolve) => parentProcess.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString()))),
      )
      while (!readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ')) await new Promise((resolve) => setImmediate(resolve))
      const dir = await makeOwnedDir(parent, 'z-')
      ownedBy(dir, pid)
      await sweepDeadOwners(parent, 'z-')
      expect(existsSync(dir)).toBe(false)
    } finally {
      parentProcess.kill('SIGKILL')
    }
  })
})
