import { isTokenExpired, msUntilExpiry, userFromToken } from '@/auth/session';
import { fakeToken } from '../helpers/render';

const now = Date.parse('2026-01-01T12:00:00Z');
const inSeconds = (seconds: number) => Math.floor(now / 1000) + seconds;

describe('isTokenExpired', () => {
  it('is false for a decodable token whose exp is in the future', () => {
    expect(isTokenExpired(fakeToken({ exp: inSeconds(60) }), now)).toBe(false);
  });

  it.each([
    ['an exp in the past', fakeToken({ exp: inSeconds(-1) })],
    ['no exp claim', fakeToken({ username: 'x' })],
    ['a token that cannot be decoded', 'not-a-jwt'],
    ['no token', null],
  ])('is true for %s', (_case, token) => {
    expect(isTokenExpired(token, now)).toBe(true);
  });
});

describe('userFromToken', () => {
  it('reads the user from the claims', () => {
    const token = fakeToken({
      sub: 'u1',
      username: 'ada',
      email: 'ada@example.com',
      roles: ['viewer'],
    });
    expect(userFromToken(token)).toEqual({
      _id: 'u1',
      username: 'ada',
      email: 'ada@example.com',
      roles: ['viewer'],
    });
  });

  it('is undefined for a token that cannot be decoded', () => {
    expect(userFromToken('garbage')).toBeUndefined();
  });
});

describe('msUntilExpiry', () => {
  it('counts the milliseconds left', () => {
    expect(msUntilExpiry(fakeToken({ exp: inSeconds(300) }), now)).toBe(300_000);
  });
});
