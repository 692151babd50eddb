import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { constants, crc32, createDeflateRaw, type DeflateRaw } from 'node:zlib';

/** ZIP without ZIP64: each entry and the whole archive stay under 4 GiB. */
const MAX_32 = 0xffffffff;
const FLAG_DATA_DESCRIPTOR = 0x0008;
const FLAG_UTF8 = 0x0800;
const DEFLATE = 8;

interface Entry {
  name: Buffer;
  crc: number;
  compressed: number;
  size: number;
  offset: number;
}

/** DOS date and time of `date` (local time, as unzip tools show it). */
function dosDateTime(date: Date): { time: number; date: number } {
  return {
    time: (date.getHours() << 11) | (date.getMinutes() << 5) | (date.getSeconds() >> 1),
    date: ((date.getFullYear() - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate(),
  };
}

/** One entry being written: text or bytes in, deflated into the archive. */
export interface ZipEntryWriter {
  /** Resolves when the deflater can take more (backpressure). */
  write(chunk: string | Buffer): Promise<void>;
  end(): Promise<void>;
}

/**
 * A streaming ZIP writer (deflate, data descriptors, UTF-8 names) onto any Writable: entries
 * are written one after the other, each deflated as it comes, so memory does not grow with
 * the archive. CRC-32 is zlib's native one. Readers: Excel, LibreOffice, exceljs, unzip.
 */
export class ZipWriter {
  private readonly entries: Entry[] = [];
  private offset = 0;
  private readonly stamp = dosDateTime(new Date());
  private open = false;
  /** The output's error (disk full, client gone): the next write throws it. */
  private failure: Error | undefined;
  private deflate: DeflateRaw | undefined;
  private finished = false;

  constructor(
    private readonly out: Writable,
    private readonly level = constants.Z_DEFAULT_COMPRESSION,
  ) {
    const stop = (error: Error) => {
      this.failure ??= error;
      this.deflate?.destroy(this.failure); // whoever waits on it stops waiting
    };
    out.on('error', stop);
    out.on('close', () => {
      if (!this.finished) stop(new Error('output closed before the archive ended'));
    });
  }

  private async raw(buffer: Buffer): Promise<void> {
    if (this.failure) throw this.failure;
    this.offset += buffer.length;
    if (!this.out.write(buffer)) await drained(this.out);
  }

  /** Starts an entry; the previous one must be ended. */
  async entry(name: string): Promise<ZipEntryWriter> {
    if (this.open) throw new Error('zip: previous entry not ended');
    this.open = true;
    const entry: Entry = {
      name: Buffer.from(name, 'utf8'),
      crc: 0,
      compressed: 0,
      size: 0,
      offset: this.offset,
    };
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(FLAG_DATA_DESCRIPTOR | FLAG_UTF8, 6);
    header.writeUInt16LE(DEFLATE, 8);
    header.writeUInt16LE(this.stamp.time, 10);
    header.writeUInt16LE(this.stamp.date, 12);
    // crc, sizes: 0 here, in the data descriptor after the data
    header.writeUInt16LE(entry.name.length, 26);
    await this.raw(Buffer.concat([header, entry.name]));

    const deflate = createDeflateRaw({ level: this.level, memLevel: 9 });
    this.deflate = deflate;
    deflate.on('data', (chunk: Buffer) => {
      entry.compressed += chunk.length;
      this.offset += chunk.length;
      if (!this.out.write(chunk)) {
        deflate.pause();
        this.out.once('drain', () => deflate.resume());
      }
    });
    let failed: Error | undefined;
    deflate.on('error', (error) => (failed = error));
    const ended = new Promise<void>((resolve, reject) => {
      deflate.once('end', resolve);
      deflate.once('close', () => reject(failed ?? this.failure ?? new Error('deflate closed')));
    });
    ended.catch(() => undefined); // awaited in end(); a failure before that is thrown by write
    return {
      write: async (chunk) => {
        if (failed ?? this.failure) throw failed ?? this.failure;
        const buffer = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
        entry.crc = crc32(buffer, entry.crc);
        entry.size += buffer.length;
        if (entry.size > MAX_32) throw new Error('zip: entry over 4 GiB');
        if (!deflate.write(buffer)) await drained(deflate);
      },
      end: async () => {
        deflate.end();
        await ended;
        if (failed) throw failed;
        const descriptor = Buffer.alloc(16);
        descriptor.writeUInt32LE(0x08074b50, 0);
        descriptor.writeUInt32LE(entry.crc >>> 0, 4);
        descriptor.writeUInt32LE(entry.compressed, 8);
        descriptor.writeUInt32LE(entry.size, 12);
        await this.raw(descriptor);
        this.entries.push(entry);
        this.open = false;
        this.deflate = undefined;
      },
    };
  }

  /** A whole entry at once. */
  async add(name: string, content: string | Buffer): Promise<void> {
    const entry = await this.entry(name);
    await entry.write(content);
    await entry.end();
  }

  /** Writes the central directory and ends the output stream. */
  async finish(): Promise<void> {
    if (this.open) throw new Error('zip: entry not ended');
    const start = this.offset;
    for (const e of this.entries) {
      const header = Buffer.alloc(46);
      header.writeUInt32LE(0x02014b50, 0);
      header.writeUInt16LE(20, 4);
      header.writeUInt16LE(20, 6);
      header.writeUInt16LE(FLAG_DATA_DESCRIPTOR | FLAG_UTF8, 8);
      header.writeUInt16LE(DEFLATE, 10);
      header.writeUInt16LE(this.stamp.time, 12);
      header.writeUInt16LE(this.stamp.date, 14);
      header.writeUInt32LE(e.crc >>> 0, 16);
      header.writeUInt32LE(e.compressed, 20);
      header.writeUInt32LE(e.size, 24);
      header.writeUInt16LE(e.name.length, 28);
      header.writeUInt32LE(e.offset, 42);
      await this.raw(Buffer.concat([header, e.name]));
    }
    const size = this.offset - start;
    if (this.offset > MAX_32) throw new Error('zip: archive over 4 GiB');
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(this.entries.length, 8);
    end.writeUInt16LE(this.entries.length, 10);
    end.writeUInt32LE(size, 12);
    end.writeUInt32LE(start, 16);
    await this.raw(end);
    this.finished = true;
    this.out.end();
    if (!this.out.writableFinished) await once(this.out, 'finish');
  }
}

function drained(stream: Writable): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = (error?: Error) => {
      stream.off('drain', onDrain);
      stream.off('error', done);
      stream.off('close', onClose);
      if (error) reject(error);
      else resolve();
    };
    const onDrain = () => done();
    const onClose = () => done(new Error('stream closed'));
    stream.once('drain', onDrain);
    stream.once('error', done);
    stream.once('close', onClose);
  });
}
