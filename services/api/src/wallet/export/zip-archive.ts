import { PassThrough, type Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { ZipFile } from 'yazl';

/** One entry being written: text or bytes in, deflated into the archive. */
export interface ZipEntryWriter {
  /** Resolves when the entry can take more (backpressure). */
  write(chunk: string | Buffer): Promise<void>;
  /** Resolves once the archive has taken the whole entry. */
  end(): Promise<void>;
}

/**
 * A streaming ZIP onto any Writable, made by yazl (native zlib deflate, data descriptors,
 * ZIP64 only when an entry or the archive passes 4 GiB). This adapter adds what the export
 * needs around it: entries written as they come with backpressure (the entry's input, yazl's
 * deflater and output are piped, so memory stays flat whatever the size), and an output that
 * fails or closes early (client gone, disk full) rejects every wait at once instead of
 * leaving the writer paused on a drain that never comes.
 */
export class ZipArchive {
  private readonly zip = new ZipFile();
  private readonly mtime = new Date();
  private failure: Error | undefined;
  private input: PassThrough | undefined;
  private done = false;
  private readonly written: Promise<void>;

  constructor(
    private readonly out: Writable,
    private readonly level = 6,
  ) {
    let fail: (error: Error) => void = () => undefined;
    this.written = new Promise<void>((resolve, reject) => {
      fail = reject;
      out.once('finish', () => {
        this.done = true;
        resolve();
      });
    });
    this.written.catch(() => undefined); // awaited in finish(); before that, writes throw
    const stop = (error: Error) => {
      if (this.done) return;
      this.failure ??= error;
      this.zip.outputStream.unpipe(out);
      this.input?.destroy(this.failure); // whoever waits on the entry stops waiting
      fail(this.failure);
    };
    this.zip.on('error', stop);
    out.on('error', stop);
    out.on('close', () => stop(new Error('output closed before the archive ended')));
    this.zip.outputStream.pipe(out);
  }

  private check(): void {
    if (this.failure) throw this.failure;
  }

  /** A whole entry at once (deflated off the main thread). */
  add(name: string, content: string | Buffer): void {
    this.check();
    if (this.input) throw new Error('zip: previous entry not ended');
    const buffer = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    this.zip.addBuffer(buffer, name, { compressionLevel: this.level, mtime: this.mtime });
  }

  /** Starts a streamed entry; the previous one must be ended. */
  entry(name: string): ZipEntryWriter {
    this.check();
    if (this.input) throw new Error('zip: previous entry not ended');
    const input = new PassThrough({ highWaterMark: 64 * 1024 });
    input.on('error', () => undefined); // the failure is this.failure, thrown by the next call
    this.input = input;
    this.zip.addReadStream(input, name, { compressionLevel: this.level, mtime: this.mtime });
    return {
      write: async (chunk) => {
        this.check();
        if (!input.write(chunk)) await drained(input);
      },
      end: async () => {
        this.check();
        input.end();
        await finished(input); // read to its end by the archive, or rejected if destroyed
        this.check();
        this.input = undefined;
      },
    };
  }

  /** Writes the central directory and waits for the output to finish. */
  async finish(): Promise<void> {
    this.check();
    if (this.input) throw new Error('zip: entry not ended');
    this.zip.end();
    await this.written;
  }
}

function drained(stream: PassThrough): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = (error?: Error) => {
      stream.off('drain', onDrain);
      stream.off('error', done);
      stream.off('close', onClose);
      if (error) reject(error);
      else resolve();
    };
    const onDrain = () => done();
    const onClose = () => done(stream.errored ?? new Error('stream closed'));
    stream.once('drain', onDrain);
    stream.once('error', done);
    stream.once('close', onClose);
  });
}
