// The worker of test/helpers/deadline.ts: loads TypeScript through tsx, imports `file` and posts
// what `name` returned for `args` (a hang is the parent's to end).
import { parentPort, workerData } from 'node:worker_threads'
import { register } from 'tsx/esm/api'

register()
const { file, name, args } = workerData
const module = await import(file)
const value = await module[name](...args)
parentPort.postMessage(value === undefined ? null : value)
