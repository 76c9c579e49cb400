/**
 * Transport errors are not violations: an answer that arrived before the
 * server reset the connection is judged, and a reset with no answer at all is a skip that says
 * the check could not be made and why. The servers are raw TCP (node:net), so that they can
 * answer and reset exactly as a server that stops reading an upload does.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { audit } from 'api-conventions/audit';
import { afterEach, describe, expect, it } from 'vitest';

type Reaction = 'answer-413-then-reset' | 'reset-without-answer';

const json = (status: string, body: unknown, extra = '') => {
  const text = JSON.stringify(body);
  return `HTTP/1.1 ${status}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(text)}\r\ndate: ${new Date().toUTCString()}\r\n${extra}\r\n${text}`;
};

/** A service whose GET /v1/things answers a list, and whose POST of a large body meets `reaction`. */
async function startRaw(reaction: Reaction): Promise<{ base: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let head = '';
    const onData = (chunk: Buffer) => {
      head += chunk.toString('latin1');
      const end = head.indexOf('\r\n\r\n');
      if (end === -1) return;
      const [line = '', ...fields] = head.slice(0, end).split('\r\n');
      const [method, target] = line.split(' ');
      const length = Number(
        fields
          .find((f) => /^content-length:/i.test(f))
          ?.split(':')[1]
          ?.trim() ?? 0,
      );
      head = head.slice(end + 4);
      if (method === 'POST' && length > 1 << 20) {
        socket.off('data', onData);
        // Read part of the upload first, as a server counting bytes against its limit does,
        // then answer (or not) and reset with the rest of the upload unread.
        let read = head.length;
        const counting = (more: Buffer) => {
          read += more.length;
          if (read < 256 << 10) return;
          socket.off('data', counting);
          if (reaction === 'reset-without-answer') {
            socket.resetAndDestroy();
            return;
          }
          socket.write(
            json('413 Content Too Large', { errors: [{ message: 'Too large.', code: 41300 }] }),
            () => socket.resetAndDestroy(),
          );
        };
        socket.on('data', counting);
        return;
      }
      if (method === 'GET' && target === '/v1/things') {
        socket.write(json('200 OK', { things: [], hasNext: false }));
      } else {
        socket.write(json('404 Not Found', { errors: [{ message: 'Nothing.', code: 40400 }] }));
      }
    };
    socket.on('data', onData);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    base: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

let running: Awaited<ReturnType<typeof startRaw>> | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

const oversized = async (reaction: Reaction) => {
  running = await startRaw(reaction);
  const report = await audit({
    baseUrl: `${running.base}/v1/things`,
    allowWrites: true,
    only: ['7.2'],
  });
  return report.findings.find((f) => f.request.includes('8 MiB'));
};

describe('an upload the server answers and then resets (spec 7.2)', () => {
  it('judges the 413 that arrived before the reset, in each of 10 runs', async () => {
    for (let run = 0; run < 10; run++) {
      expect(await oversized('answer-413-then-reset')).toMatchObject({
        outcome: 'pass',
        status: 413,
        detail: '413 with the error body',
      });
      await running?.close();
      running = undefined;
    }
  });

  it('says it could not check, and why, when the reset came with no answer', async () => {
    expect(await oversized('reset-without-answer')).toMatchObject({
      outcome: 'skip',
      detail: expect.stringMatching(/^could not check: no answer \((ECONNRESET|EPIPE)\)/),
    });
  });
});
