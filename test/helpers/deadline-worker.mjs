// The worker of test/helpers/deadline.ts: loads TypeScript through tsx, imports `file` and posts
// what `name` returned for `args`; the function gets one more argument, a `progress(label)` that
// tells the parent what it is doing (named when the deadline passes). A hang is the parent's to end.
import { parentPort, workerData } from 'node:worker_threads'
import { register } from 'tsx/esm/api'

register()
const { file, name, args } = workerData
const module = await import(file)
const progress = (label) => parentPort.postMessage({ progress: label })
const value = await module[name](...args, progress)
parentPort.postMessage({ done: value === undefined ? null : value })
