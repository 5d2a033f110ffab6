// The console session (cookie commerce_session): signIn turns a verified
// bootstrap session into a console session; signOut revokes it.
import { gql } from 'urql';

export const SignIn = gql`
  mutation SignIn($input: SignInInput!) {
    signIn(input: $input) { expiresAt account { id email } }
  }
`;

export const SignOut = gql`
  mutation SignOut { signOut }
`;
