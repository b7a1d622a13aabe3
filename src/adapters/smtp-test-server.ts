// For tests only: a real SMTP server on 127.0.0.1 (smtp-server) that keeps what it receives, parsed (mailparser),
// and can refuse recipients, refuse a login, or cut the connection once the message is in.
import type { Socket } from 'node:net'
import { SMTPServer, type SMTPServerAddress } from 'smtp-server'
import { simpleParser, type ParsedMail } from 'mailparser'

export interface Received {
  envelope: { from: string; to: string[] }
  /** The login the client used, if any. */
  login: { user: string; pass: string } | null
  raw: Buffer
  mail: ParsedMail
}

export type Behaviour = 'accept' | 'cut_after_data'

export interface TestSmtpServer {
  port: number
  /** smtp://127.0.0.1:PORT, without a login. */
  url: string
  received: Received[]
  /** Recipients (lower case) answered 550 at RCPT TO. */
  refuse: Set<string>
  /** Recipients (lower case) answered 451 at RCPT TO: a refusal for now, to be tried again later. */
  defer: Set<string>
  behaviour: Behaviour
  /** When set, a login is required and only this one is taken. */
  credentials: { user: string; pass: string } | null
  /** Connections opened to it, and AUTH commands it was sent (whether taken or not), since it started. */
  connections: number
  logins: number
  /** How long the server waits before answering a message's end (a slow relay); 0 at first. */
  answerDelayMs: number
  close(): Promise<void>
}

export async function startTestSmtpServer(): Promise<TestSmtpServer> {
  const sockets = new Set<Socket>()
  const logins = new Map<string, { user: string; pass: string }>()
  const state: TestSmtpServer = {
    port: 0,
    url: '',
    received: [],
    refuse: new Set(),
    defer: new Set(),
    behaviour: 'accept',
    credentials: null,
    connections: 0,
    logins: 0,
    answerDelayMs: 0,
    close: async () => {
      for (const s of sockets) s.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
  const server = new SMTPServer({
    // Plain SMTP on loopback: no STARTTLS offered, a login taken without TLS.
    hideSTARTTLS: true,
    allowInsecureAuth: true,
    authOptional: true,
    disableReverseLookup: true,
    logger: false,
    onAuth(auth, session, callback) {
      state.logins++
      const c = state.credentials
      if (c && (auth.username !== c.user || auth.password !== c.pass))
        return callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }))
      logins.set(session.id, { user: auth.username ?? '', pass: auth.password ?? '' })
      callback(null, { user: auth.username })
    },
    onMailFrom(_address, session, callback) {
      if (state.credentials && !session.user)
        return callback(Object.assign(new Error('Authentication required'), { responseCode: 530 }))
      callback()
    },
    onRcptTo(address: SMTPServerAddress, _session, callback) {
      if (state.refuse.has(address.address.toLowerCase()))
        return callback(Object.assign(new Error('No such user here'), { responseCode: 550 }))
      if (state.defer.has(address.address.toLowerCase()))
        return callback(Object.assign(new Error('Try again later'), { responseCode: 451 }))
      callback()
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (c: Buffer) => chunks.push(c))
      stream.on('end', async () => {
        const raw = Buffer.concat(chunks)
        if (state.behaviour === 'cut_after_data') {
          // The message is in, the answer never comes: the client cannot know whether it was taken.
          for (const s of sockets) s.destroy()
          return
        }
        state.received.push({
          envelope: {
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
          },
          login: logins.get(session.id) ?? null,
          raw,
          mail: await simpleParser(raw),
        })
        if (state.answerDelayMs > 0) await Bun.sleep(state.answerDelayMs)
        callback()
      })
    },
  })
  server.server.on('connection', (s: Socket) => {
    state.connections++
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
  })
  // A destroyed socket may surface as a server error event; it is what the test asked for.
  server.on('error', () => {})
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  state.port = (server.server.address() as { port: number }).port
  state.url = `smtp://127.0.0.1:${state.port}`
  return state
}

/** A port on 127.0.0.1 where nothing listens (taken and let go at once). */
export async function closedPort(): Promise<number> {
  const s = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } })
  const port = s.port
  s.stop(true)
  return port
}
