import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Encrypts the secrets the database keeps (AES-256-GCM), and digests the short ones it only
 * compares (HMAC-SHA-256), with keys derived from `SECRETS_KEY`, or else from the token
 * signing key. A sealed value is `v1.<iv>.<tag>.<ciphertext>`, base64url: the version names
 * the scheme, should it change.
 */
export class SecretBox {
  private readonly key: Buffer;
  private readonly digestKey: Buffer;

  constructor(material: Uint8Array) {
    this.key = Buffer.from(hkdfSync('sha256', material, 'secret-box', 'aes-256-gcm', 32));
    this.digestKey = Buffer.from(hkdfSync('sha256', material, 'secret-box', 'hmac-sha256', 32));
  }

  /**
   * A keyed digest of a short secret (a recovery code): a copy of the table alone cannot be
   * searched for the codes, as a plain hash of so few characters could.
   */
  digest(text: string): string {
    return createHmac('sha256', this.digestKey).update(text).digest('hex');
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), sealed]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
  }

  /** @throws when the value was not sealed with this key, or was altered. */
  open(sealed: string): string {
    const [version, iv, tag, data] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || data === undefined)
      throw new Error('Not a sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([
      decipher.update(Buffer.from(data, 'base64url')),
      decipher.final(),
    ]).toString('utf8');
  }
}
