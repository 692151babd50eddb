/** A mail to send. `link` is the one action the mail carries (logged in the outbox mode). */
export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  link?: string;
}

/** The port through which identity sends mail; SMTP or the outbox table. */
export interface Mailer {
  send(mail: Mail): Promise<void>;
  close?(): Promise<void>;
}
