import type { Socket } from "node:net";
import { connect, createSecureContext, type SecureContext } from "node:tls";
import { CallCredentials, ChannelCredentials } from "@grpc/grpc-js";

/** What grpc-js asks of a channel's credentials for each connection it makes (`SecureConnector`). */
interface Connector {
  connect(socket: Socket): Promise<{ socket: Socket; secure: boolean }>;
  waitForReady(): Promise<void>;
  getCallCredentials(): CallCredentials;
  destroy(): void;
}

/** A machine's mTLS identity and the agent listener's CA and name. */
export interface MachineTls {
  readonly caCertificatePem: string;
  readonly privateKeyPem: string;
  readonly certificatePem: string;
  /** The name the listener's certificate must carry (TLS checks no IP address). */
  readonly serverName: string;
}

/**
 * mTLS credentials for one machine's channel that resume the TLS session of its last connection, as agents on
 * rustls or OpenSSL do by default. Agents polling less often than the listener's idle close connect anew at every
 * poll; a full handshake sends, signs and checks certificates both ways, a resumed one does not (the service
 * still knows the client certificate: it is part of the session). grpc-js's own credentials start afresh each
 * time.
 */
export class ResumingTlsCredentials extends ChannelCredentials {
  private readonly context: SecureContext;
  private session: Buffer | undefined;

  /** `onHandshake` hears of each connection made, and whether it resumed a session. */
  constructor(
    private readonly tls: MachineTls,
    private readonly onHandshake: (resumed: boolean) => void = () => undefined,
  ) {
    super();
    this.context = createSecureContext({
      ca: tls.caCertificatePem,
      key: tls.privateKeyPem,
      cert: tls.certificatePem,
    });
  }

  _isSecure(): boolean {
    return true;
  }

  _equals(other: ChannelCredentials): boolean {
    return other === this;
  }

  _createSecureConnector(_target: unknown, _options: unknown, callCredentials?: CallCredentials): Connector {
    const perCall = callCredentials ?? CallCredentials.createEmpty();
    return {
      connect: (socket) => this.handshake(socket),
      waitForReady: () => Promise.resolve(),
      getCallCredentials: () => perCall,
      destroy: () => undefined,
    };
  }

  private handshake(socket: Socket): Promise<{ socket: Socket; secure: boolean }> {
    return new Promise((resolve, reject) => {
      const secure = connect({
        socket,
        secureContext: this.context,
        servername: this.tls.serverName,
        ALPNProtocols: ["h2"],
        ...(this.session ? { session: this.session } : {}),
      });
      // TLS 1.3 tickets come after the handshake, and again with every connection: the newest is kept.
      secure.on("session", (session: Buffer) => {
        this.session = session;
      });
      secure.once("secureConnect", () => {
        if (!secure.authorized) return reject(secure.authorizationError);
        this.onHandshake(secure.isSessionReused());
        resolve({ socket: secure, secure: true });
      });
      secure.once("error", reject);
    });
  }
}
