import type { LoginResponse } from '@common/schemas/auth';
import { usePasskeySignInMutation, usePasskeySignInOptionsMutation } from './auth.api';
import { getPasskey } from './passkey';

/**
 * Signs in with a passkey: alone (no `challenge`), or as the second step of the sign-in
 * whose challenge it is. Throws when the person cancels, or the server refuses it.
 */
export function usePasskeySignIn() {
  const [getOptions, { isLoading: isGettingOptions }] = usePasskeySignInOptionsMutation();
  const [signIn, { isLoading: isSigningIn }] = usePasskeySignInMutation();
  const run = async (challenge?: string): Promise<LoginResponse> => {
    const options = await getOptions({ challenge }).unwrap();
    const credential = await getPasskey(options);
    return signIn({ challenge, credential }).unwrap();
  };
  return { signInWithPasskey: run, isBusy: isGettingOptions || isSigningIn };
}
