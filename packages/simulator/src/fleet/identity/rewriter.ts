import { spellToken } from "./spelling.js";
import type { MockupIdentity } from "./types.js";

/**
 * The rewrite of one mockup's identity, compiled once and shared by every virtual BMC serving it: one regular
 * expression of every spelling present (longest first, so a GUID wins over the MAC inside it).
 */
export class IdentityRewriter {
  private readonly pattern: RegExp | undefined;

  constructor(readonly identity: MockupIdentity) {
    const texts = identity.spellings.map((spelled) => spelled.text).sort((a, b) => b.length - a.length);
    this.pattern = texts.length ? new RegExp(texts.map(escapeRegExp).join("|"), "g") : undefined;
  }

  /**
   * The rewrite for one virtual BMC; `values` holds the new canonical value of each token of the identity
   * (same order).
   */
  forBmc(values: readonly string[]): IdentityRewrite {
    const forward = new Map<string, string>();
    for (const { text, token, spelling } of this.identity.spellings) {
      const kind = this.identity.tokens[token]?.kind;
      const value = values[token];
      if (kind && value !== undefined) forward.set(text, spellToken(kind, value, spelling));
    }
    return new IdentityRewrite(this.pattern, forward);
  }
}

/**
 * One virtual BMC's rewrite: `forward` turns what the shared tree says into this BMC's identity (every served
 * document), `backward` turns this BMC's identity back into the tree's (request paths and bodies), so the
 * state and the vendor behaviors always work on the tree's own values.
 */
export class IdentityRewrite {
  private backwardPattern: RegExp | undefined;
  private backwardMap: Map<string, string> | undefined;

  constructor(
    private readonly pattern: RegExp | undefined,
    private readonly forwardMap: ReadonlyMap<string, string>,
  ) {}

  forward(text: string): string {
    return this.pattern ? text.replace(this.pattern, (match) => this.forwardMap.get(match) ?? match) : text;
  }

  backward(text: string): string {
    if (!this.backwardMap) {
      // Built on the first write only: most virtual BMCs are only ever read.
      this.backwardMap = new Map([...this.forwardMap].map(([original, rewritten]) => [rewritten, original]));
      const texts = [...this.backwardMap.keys()].sort((a, b) => b.length - a.length);
      this.backwardPattern = texts.length ? new RegExp(texts.map(escapeRegExp).join("|"), "g") : undefined;
    }
    const map = this.backwardMap;
    return this.backwardPattern
      ? text.replace(this.backwardPattern, (match) => map.get(match) ?? match)
      : text;
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
