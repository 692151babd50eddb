// The part of autocannon's API bench:wallet uses (the package ships no types).
declare module 'autocannon' {
  import type { IncomingHttpHeaders } from 'node:http';

  interface Request {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
  }
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    pipelining?: number;
    timeout?: number;
    headers?: Record<string, string>;
    requests?: (Request & { setupRequest?: (req: Request, context: object) => Request })[];
  }
  interface Histogram {
    average: number;
    p50: number;
    p99: number;
    max: number;
  }
  interface Result {
    duration: number;
    latency: Histogram;
    requests: Histogram & { total: number; sent: number };
    errors: number;
    timeouts: number;
    non2xx: number;
    statusCodeStats: Record<string, { count: number }>;
    headers?: IncomingHttpHeaders;
  }
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
