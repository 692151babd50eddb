import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { twilioSignature } from '../gateway/twilio.js';

/** A message the stand-in took, as Twilio would keep it. */
export interface StandInMessage {
  sid: string;
  to: string;
  from: string;
  body: string;
  statusCallback: string;
  dateCreated: Date;
  segments: number;
}

/** What the stand-in does with the next requests to send. */
export type Fault =
  | { kind: 'status'; status: 500 | 502 | 503 | 429 | 401 }
  /** Takes the message, then answers after `ms` (the client has given up: no answer). */
  | { kind: 'slow-after-taking'; ms: number }
  /** Answers after `ms` without taking the message. */
  | { kind: 'slow-without-taking'; ms: number };

/**
 * A local stand-in of Twilio's Messaging API for tests and the bench: `POST` and `GET
 * /2010-04-01/Accounts/{sid}/Messages.json` with HTTP Basic, Twilio's answers (201 with a
 * `sid`, 400 `{code: 21211}` for a number it is told to refuse, 401 `{code: 20003}`), faults
 * on demand (5xx, 429, slow answers), signed status callbacks (`report`) and signed
 * messages from phones (`incoming`).
 */
export class TwilioStandIn {
  readonly accountSid = `AC${randomBytes(16).toString('hex')}`;
  readonly authToken = randomBytes(16).toString('hex');
  readonly messages: StandInMessage[] = [];
  /** Send requests received (accepted or not). */
  requests = 0;
  /** Numbers refused as invalid (400, code 21211). */
  readonly invalidNumbers = new Set<string>();
  private readonly faults: Fault[] = [];
  /** While true every send answers 503 (an outage). */
  down = false;
  private server: Server | undefined;
  private sockets = new Set<Socket>();
  private next = 0;

  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  /** The next send requests meet these faults, in order. */
  fail(...faults: Fault[]): void {
    this.faults.push(...faults);
  }

  /**
   * A status callback as Twilio posts it for `sid`: the URL it was given, the form parameters
   * and their `X-Twilio-Signature`.
   */
  report(
    sid: string,
    status: string,
    errorCode?: string,
  ): { url: string; params: Record<string, string>; signature: string } {
    const message = this.messages.find((m) => m.sid === sid);
    if (!message) throw new Error(`no message ${sid}`);
    const params: Record<string, string> = {
      AccountSid: this.accountSid,
      ApiVersion: '2010-04-01',
      From: message.from,
      MessageSid: sid,
      MessageStatus: status,
      SmsSid: sid,
      SmsStatus: status,
      To: message.to,
      ...(errorCode ? { ErrorCode: errorCode } : {}),
    };
    return {
      url: message.statusCallback,
      params,
      signature: twilioSignature(this.authToken, message.statusCallback, params),
    };
  }

  /**
   * A message a phone sends to Filière's number as Twilio posts it to the messaging webhook at
   * `url`: its form parameters (`sid` is the MessageSid Twilio keeps across its retries) and
   * their `X-Twilio-Signature`.
   */
  incoming(
    url: string,
    message: { sid: string; from: string; body: string },
  ): { params: Record<string, string>; signature: string } {
    const params: Record<string, string> = {
      AccountSid: this.accountSid,
      ApiVersion: '2010-04-01',
      Body: message.body,
      From: message.from,
      MessageSid: message.sid,
      NumMedia: '0',
      SmsSid: message.sid,
      To: '+12025550100',
    };
    return { params, signature: twilioSignature(this.authToken, url, params) };
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', this.url);
    const path = `/2010-04-01/Accounts/${this.accountSid}/Messages.json`;
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const expected = `Basic ${Buffer.from(`${this.accountSid}:${this.authToken}`).toString('base64')}`;
    if (url.pathname !== path) return json(404, { code: 20404, message: 'Not found', status: 404 });
    if (req.headers.authorization !== expected) {
      return json(401, { code: 20003, message: 'Authenticate', status: 401 });
    }
    if (req.method === 'GET') {
      const to = url.searchParams.get('To');
      const list = this.messages
        .filter((m) => !to || m.to === to)
        .slice()
        .reverse()
        .slice(0, Number(url.searchParams.get('PageSize') ?? 50));
      return json(200, {
        messages: list.map((m) => ({
          sid: m.sid,
          body: m.body,
          to: m.to,
          date_created: m.dateCreated.toUTCString(),
          num_segments: String(m.segments),
          status: 'sent',
        })),
      });
    }
    if (req.method !== 'POST') return json(405, { code: 20004, message: 'Method not allowed' });
    this.requests += 1;
    const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
    const fault = this.faults.shift();
    if (this.down) return json(503, { code: 20503, message: 'Service unavailable', status: 503 });
    if (fault?.kind === 'status') {
      return json(fault.status, {
        code: 20000 + fault.status,
        message: 'fault',
        status: fault.status,
      });
    }
    if (fault?.kind === 'slow-without-taking') {
      await new Promise((resolve) => setTimeout(resolve, fault.ms));
      return json(503, { code: 20503, message: 'Service unavailable', status: 503 });
    }
    if (!form.To || !form.Body || !form.From) {
      return json(400, { code: 21604, message: 'A required parameter is missing', status: 400 });
    }
    if (this.invalidNumbers.has(form.To)) {
      return json(400, {
        code: 21211,
        message: `The 'To' number ${form.To} is not a valid phone number.`,
        status: 400,
      });
    }
    const message: StandInMessage = {
      sid: `SM${String(++this.next).padStart(32, '0')}`,
      to: form.To,
      from: form.From,
      body: form.Body,
      statusCallback: form.StatusCallback ?? '',
      dateCreated: new Date(),
      segments: form.Body.length <= 160 ? 1 : Math.ceil(form.Body.length / 153),
    };
    this.messages.push(message);
    if (fault?.kind === 'slow-after-taking') {
      await new Promise((resolve) => setTimeout(resolve, fault.ms));
    }
    if (res.destroyed) return;
    return json(201, {
      sid: message.sid,
      status: 'queued',
      to: message.to,
      body: message.body,
      num_segments: String(message.segments),
    });
  }
}
