// The webhook ceiling: a bare undici loop that POSTs the service's own signed deliveries (captured by the
// receiver) to the same receiver, at the service's concurrency: the worker sends to each endpoint one
// delivery at a time, in order, so there are as many requests in flight as endpoints.
import { Agent, request } from 'undici';
import type { Sample } from './receiver.js';

export interface CeilingRun {
  requests: number;
  seconds: number;
}

export async function replayDeliveries(receiverUrl: string, samples: readonly Sample[], endpoints: number, total: number): Promise<CeilingRun> {
  if (samples.length === 0) throw new Error('no captured deliveries to replay');
  // Keep-alive connections, as the service's sender (src/webhooks/sender.ts) keeps them.
  const agent = new Agent({ keepAliveTimeout: 60_000 });
  let sent = 0;
  const started = performance.now();
  try {
    await Promise.all(
      Array.from({ length: endpoints }, async (_, lane) => {
        for (let i = lane; i < total; i += endpoints) {
          const sample = samples[i % samples.length]!;
          const response = await request(`${receiverUrl}/ep/${lane}`, { method: 'POST', headers: sample.headers, body: sample.body, dispatcher: agent });
          await response.body.dump();
          if (response.statusCode !== 200) throw new Error(`the receiver answered ${response.statusCode}`);
          sent++;
        }
      }),
    );
  } finally {
    await agent.close();
  }
  return { requests: sent, seconds: (performance.now() - started) / 1000 };
}
