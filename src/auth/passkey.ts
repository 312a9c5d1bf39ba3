/**
 * The browser's passkey ceremonies (WebAuthn, through @simplewebauthn/browser, loaded on
 * first use): the options come from the server and go back to it, answered.
 */
import { t } from '@/i18n/useT';

type Options = { challenge: string } & Record<string, unknown>;

/**
 * The sentence for a browser's refusal of a passkey ceremony (cancelled, this device has one
 * already, a site reached by an IP address); the server's refusals (not Errors) as they are.
 */
export function passkeyFailure(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const name = (error as { cause?: { name?: string } }).cause?.name ?? error.name;
  if (name === 'InvalidStateError') return new Error(t('auth.passkeyOnThisDevice'));
  if (name === 'SecurityError') return new Error(t('auth.passkeyNeedsName'));
  return new Error(t('auth.passkeyFailed'));
}

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
