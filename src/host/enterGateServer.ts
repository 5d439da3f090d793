// The Enter gate's server: a TCP socket on 127.0.0.1 that the shells of VS Code's terminal ask, at
// Enter, whether a line may run (media/shell/enter.*; the wire format is core/enterProtocol.ts).
// Loopback TCP because bash reaches it through /dev/tcp and zsh through zsh/net/tcp without starting
// a process; two random tokens make it private: the server proves itself first (so a line is never
// handed to whoever took the port after a restart), then the shell proves itself. No VS Code here:
// the host gives a handler, and the integration tests drive real shells against it.

import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import { enterReply, greeting, MAX_REQUEST_BYTES, parseEnterRequest, requestComplete, type EnterRequest } from '../core/enterProtocol';

/**
 * What the terminal environment puts in front of bash's PROMPT_COMMAND: before every prompt it loads
 * media/shell/enter.bash once ($FAILURE_MEMORY_SHELL_DIR) and lets it say why a line did not run,
 * keeping $? for whatever follows in PROMPT_COMMAND.
 */
export const BASH_PROMPT_LOADER =
  '__fm_rc=$?; __fm_enter_pc() { [ -n "${__fm_enter-}" ] || . "${FAILURE_MEMORY_SHELL_DIR-}/enter.bash" 2>/dev/null || __fm_enter=0; [ "$__fm_enter" != 1 ] || __fm_enter_prompt; return "$__fm_rc"; }; __fm_enter_pc\n';

export type EnterAnswer = { verdict: 'run' } | { verdict: 'block'; line: string };
export type EnterHandler = (request: EnterRequest) => Promise<EnterAnswer>;

/** A connection that sends nothing complete within this long is dropped (the shell gave up long before). */
const IDLE_MS = 5000;

export interface EnterGateAddress {
  port: number;
  clientToken: string;
  serverToken: string;
}

export class EnterGateServer {
  readonly clientToken = randomBytes(16).toString('hex');
  readonly serverToken = randomBytes(16).toString('hex');
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();

  constructor(
    private readonly handle: EnterHandler,
    private readonly onError: (message: string) => void = () => {},
  ) {}

  /** Starts listening on a free loopback port; resolves with what a shell needs to ask. */
  listen(): Promise<EnterGateAddress> {
    return new Promise((resolve, reject) => {
      const server = createServer({ noDelay: true }, socket => this.serve(socket));
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        server.off('error', reject);
        server.on('error', e => this.onError(`the Enter gate's socket failed: ${e.message}`));
        this.server = server;
        const address = server.address();
        if (!address || typeof address === 'string') return reject(new Error('no TCP address'));
        resolve({ port: address.port, clientToken: this.clientToken, serverToken: this.serverToken });
      });
    });
  }

  close(): void {
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    this.server?.close();
    this.server = undefined;
  }

  private serve(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    socket.setTimeout(IDLE_MS, () => socket.destroy());
    socket.write(greeting(this.serverToken));
    const chunks: Buffer[] = [];
    let size = 0;
    let nuls = 0;
    const onData = (chunk: Buffer): void => {
      chunks.push(chunk);
      size += chunk.length;
      for (const b of chunk) if (b === 0) nuls++;
      if (size > MAX_REQUEST_BYTES) {
        // nobody types that much: the line runs unchecked rather than wait
        socket.off('data', onData);
        socket.end(enterReply({ verdict: 'run' }));
        return;
      }
      if (!requestComplete(nuls)) return;
      socket.off('data', onData);
      void this.answer(socket, Buffer.concat(chunks, size).toString('utf8'));
    };
    socket.on('data', onData);
  }

  private async answer(socket: Socket, text: string): Promise<void> {
    const request = parseEnterRequest(text);
    if (!request || !sameToken(request.token, this.clientToken)) {
      socket.destroy();
      return;
    }
    let answer: EnterAnswer;
    try {
      answer = await this.handle(request);
    } catch (e) {
      this.onError(`the Enter gate could not decide (the line runs): ${e instanceof Error ? e.message : String(e)}`);
      answer = { verdict: 'run' };
    }
    if (!socket.destroyed) socket.end(enterReply(answer));
  }
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
