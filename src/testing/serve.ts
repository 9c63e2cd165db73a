import { type CdpClient, command, listen } from '../../runtime/internal'

/** How long a page may take to load before the example fails with `timeout`. */
const LOAD_TIMEOUT_MS = 15_000

/** How a navigation ended. */
export interface Loaded {
  /** Chrome's reason when the page could not be loaded at all (`net::ERR_CONNECTION_REFUSED`). */
  errorText?: string
  /** The load event did not come in time. */
  timedOut?: boolean
  /** HTTP status of the main document, when known. */
  status?: number
  /** The page's address after redirects. */
  url?: string
}

const noop = () => {}
const withoutHash = (url: string) => {
  const parsed = new URL(url)
  parsed.hash = ''
  return parsed.href
}

/** Navigates and waits for the load event (or the deadline); reports the main document's status. */
export async function navigate(client: CdpClient, url: string, timeoutMs = LOAD_TIMEOUT_MS): Promise<Loaded> {
  await command(client, 'Page.enable')
  await command(client, 'Network.enable')
  let status: number | undefined
  let frameId: string | undefined
  const onResponse = (event: { type: string; frameId?: string; response: { status: number } }): void => {
    if (event.type === 'Document' && (frameId === undefined || event.frameId === frameId))
      status = event.response.status
  }
  let onLoad = noop
  let timer: NodeJS.Timeout | undefined
  const loaded = new Promise<boolean>((resolve) => {
    onLoad = () => resolve(true)
    timer = setTimeout(() => resolve(false), timeoutMs)
  })
  const stopLoad = listen(client, 'Page.loadEventFired', () => onLoad())
  const stopResponse = listen(client, 'Network.responseReceived', onResponse)
  try {
    const answer = await command(client, 'Page.navigate', { url })
    frameId = answer.frameId
    if (answer.errorText) return { errorText: answer.errorText, status }
    if (!(await loaded)) return { timedOut: true, status }
    const { result } = await command(client, 'Runtime.evaluate', { expression: 'location.href', returnByValue: true })
    return { status, url: String(result.value) }
  } finally {
    clearTimeout(timer)
    stopLoad()
    stopResponse()
  }
}

/**
 * Answers the request for `url` with `body` and fails every other request (no network is
 * touched), then loads `url`. The interception stays on for the tab's life: requests the tool
 * makes fail too.
 */
export async function serveFixture(
  client: CdpClient,
  url: string,
  body: Buffer,
  contentType = 'text/html; charset=utf-8',
): Promise<Loaded> {
  const wanted = withoutHash(url)
  listen(client, 'Fetch.requestPaused', (event) => {
    const answer =
      withoutHash(event.request.url) === wanted
        ? command(client, 'Fetch.fulfillRequest', {
            requestId: event.requestId,
            responseCode: 200,
            responseHeaders: [{ name: 'Content-Type', value: contentType }],
            body: body.toString('base64'),
          })
        : command(client, 'Fetch.failRequest', { requestId: event.requestId, errorReason: 'BlockedByClient' })
    answer.catch(noop)
  })
  await command(client, 'Fetch.enable', { patterns: [{ urlPattern: '*', requestStage: 'Request' }] })
  return navigate(client, url)
}
