/**
 * The browser's passkey ceremonies (WebAuthn, through @simplewebauthn/browser, loaded on
 * first use): the options come from the server and go back to it, answered.
 */
type Options = { challenge: string } & Record<string, unknown>;

/** Whether this browser can use passkeys at all. */
export const passkeysSupported = () =>
  typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';

/** Signs in with a passkey the browser holds, for the server's options. */
export async function getPasskey(options: Options) {
  const { startAuthentication } = await import('@simplewebauthn/browser');
  return startAuthentication({ optionsJSON: options as never });
}

/** Creates a passkey on this device (or a security key), for the server's options. */
export async function createPasskey(options: Options) {
  const { startRegistration } = await import('@simplewebauthn/browser');
  return startRegistration({ optionsJSON: options as never });
}
