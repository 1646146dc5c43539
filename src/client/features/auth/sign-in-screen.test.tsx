import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, test } from 'vitest';
import { routes } from '../../../common/api';
import { AUTH_MESSAGES } from '../../../common/api/auth';
import type { EnrollmentStatus } from '../../../common/contract/auth';
import type { CurrentUser } from '../../../common/contract/user';
import { PIN_REASONS } from '../../../common/pin-rules';
import { queryKeys } from '../../lib/query-keys';
import { deferred, mockFetch, type Answer, type FetchMock } from '../../test/mock-fetch';
import { expectToast, renderWithApp, type Rendered } from '../../test/render';
import SignInScreen from './sign-in-screen';

const ADA: CurrentUser = { name: 'Ada Lovelace', firstName: 'Ada', lastName: 'Lovelace', email: null, profileImageUrl: null, role: 'member', permissions: { canAdminister: false, canDecide: false } };

/** A browser that remembers nobody and opened no enrollment link, unless told otherwise. */
function mockSignInApi({ rememberedName = null, enrollment = { state: 'none' } }: { rememberedName?: string | null; enrollment?: EnrollmentStatus } = {}): FetchMock {
  return mockFetch()
    .on(routes.auth.checkSession, { body: { canQuickLogin: rememberedName !== null, memberName: rememberedName } })
    .on(routes.auth.enrollment, { body: enrollment })
    .on(routes.auth.teamMemberNames, { body: ['Ada Lovelace', 'Alan Turing'] });
}

async function renderScreen(): Promise<Rendered> {
  const rendered = renderWithApp(<SignInScreen />);
  // The screen asks about the device first; every variant waits for that.
  await waitFor(() => {
    expect(screen.queryByText('Checking this device...')).toBeNull();
  });
  return rendered;
}

const signInButton = () => screen.getByRole('button', { name: 'Sign In' });
const heading = () => screen.getByRole('heading', { level: 1 });

async function fillLogin({ user }: Rendered, { password = 'team-secret', name = 'Ada Lovelace', pin = '' }: { password?: string; name?: string; pin?: string } = {}) {
  if (password !== '') await user.type(screen.getByLabelText('Team password'), password);
  if (name !== '') await user.type(screen.getByRole('combobox', { name: 'Name' }), name);
  if (pin !== '') await user.type(screen.getByLabelText('PIN'), pin);
}

describe('standard login', () => {
  test('shows the device check while the session and enrollment questions are open', async () => {
    const answer = deferred<Answer<{ canQuickLogin: boolean; memberName: string | null }>>();
    mockSignInApi().on(routes.auth.checkSession, () => answer.promise);
    renderWithApp(<SignInScreen />);
    expect(screen.getByRole('status').textContent).toContain('Checking this device...');
    expect(screen.queryByRole('heading', { name: 'Team Sign In' })).toBeNull();
    answer.resolve({ body: { canQuickLogin: false, memberName: null } });
    expect(await screen.findByRole('heading', { name: 'Team Sign In' })).toBeTruthy();
  });

  test('Sign In needs the password and a name, and the PIN empty or four digits', async () => {
    mockSignInApi();
    const rendered = await renderScreen();
    const { user } = rendered;
    expect(heading().textContent).toBe('Team Sign In');
    expect(signInButton()).toHaveProperty('disabled', true);

    await user.type(screen.getByLabelText('Team password'), 'team-secret');
    expect(signInButton()).toHaveProperty('disabled', true);

    const name = screen.getByRole('combobox', { name: 'Name' });
    await user.type(name, '   ');
    expect(signInButton()).toHaveProperty('disabled', true);
    await user.clear(name);
    await user.type(name, 'Ada Lovelace');
    // An empty PIN is a first sign-in: allowed.
    expect(signInButton()).toHaveProperty('disabled', false);

    const pin = screen.getByLabelText('PIN');
    await user.type(pin, '12');
    expect(signInButton()).toHaveProperty('disabled', true);
    await user.type(pin, '34');
    expect(signInButton()).toHaveProperty('disabled', false);

    await user.clear(screen.getByLabelText('Team password'));
    expect(signInButton()).toHaveProperty('disabled', true);
  });

  test('the PIN field keeps digits only, four at most', async () => {
    mockSignInApi();
    const { user } = await renderScreen();
    const pin = screen.getByLabelText('PIN');
    await user.type(pin, 'a1-b2 3');
    expect(pin).toHaveProperty('value', '123');
    await user.type(pin, '45');
    expect(pin).toHaveProperty('value', '1234');

    await user.clear(pin);
    await user.click(pin);
    await user.paste('98765');
    expect(pin).toHaveProperty('value', '9876');
  });

  // The digits filter, not a maxLength, caps the field: a maxLength would cut '12-34' to '123' first.
  test('a pasted PIN with separators keeps its four digits', async () => {
    mockSignInApi();
    const { user } = await renderScreen();
    const pin = screen.getByLabelText('PIN');
    await user.click(pin);
    await user.paste('12-34');
    expect(pin).toHaveProperty('value', '1234');
  });

  test('sends the trimmed name and signs in on 200', async () => {
    const api = mockSignInApi().on(routes.auth.login, { body: ADA });
    const rendered = await renderScreen();
    await fillLogin(rendered, { name: '  Ada Lovelace ', pin: '4831' });
    await rendered.user.click(signInButton());

    await expectToast('Welcome!', "You're now logged in as Ada Lovelace");
    expect(api.requests(routes.auth.login).map((request) => request.body)).toEqual([{ password: 'team-secret', name: 'Ada Lovelace', pin: '4831' }]);
    expect(rendered.queryClient.getQueryData(queryKeys.user)).toEqual(ADA);
  });

  test('asks the names with the team password in a header once the password field is left', async () => {
    const api = mockSignInApi();
    const { user } = await renderScreen();
    await user.type(screen.getByLabelText('Team password'), 'team-secret');
    await user.type(screen.getByRole('combobox', { name: 'Name' }), 'al');

    const option = await screen.findByRole('option');
    expect(option.textContent).toBe('Alan Turing');
    const requests = api.requests(routes.auth.teamMemberNames);
    expect(requests).toHaveLength(1);
    expect(requests[0]?.headers.get('x-team-password')).toBe('team-secret');
    expect(requests[0]?.query.toString()).toBe('');
  });

  test('a 401 shows the server message, empties the PIN and stays on the login', async () => {
    mockSignInApi().on(routes.auth.login, { status: 401, error: { code: 'INVALID_CREDENTIALS', message: AUTH_MESSAGES.invalidCredentials } });
    const rendered = await renderScreen();
    await fillLogin(rendered, { pin: '4831' });
    await rendered.user.click(signInButton());

    await expectToast('Login failed', AUTH_MESSAGES.invalidCredentials);
    expect(heading().textContent).toBe('Team Sign In');
    expect(screen.getByLabelText('PIN')).toHaveProperty('value', '');
    expect(document.activeElement).toBe(screen.getByLabelText('PIN'));
  });

  test('a 202 opens Create Your PIN for the name the server answered', async () => {
    mockSignInApi().on(routes.auth.login, { status: 202, body: { pinSetupRequired: true, name: 'Ada Lovelace', message: 'Create your 4-digit PIN to finish signing in' } });
    const rendered = await renderScreen();
    await fillLogin(rendered, { name: 'ada lovelace' });
    await rendered.user.click(signInButton());

    expect(await screen.findByRole('heading', { name: 'Create Your PIN' })).toBeTruthy();
    // Without an enrollment link this browser may not create a PIN: the card says how to get one.
    const card = screen.getByRole('region', { name: 'Create Your PIN' });
    expect(card.textContent).toContain('Signing in as Ada Lovelace needs a PIN.');
    expect(within(card).getByRole('button', { name: 'Ask the Admin for a Link' })).toBeTruthy();
  });

  test("'Ask the Admin for a Link' opens 'Ask for a PIN' and says the request was sent", async () => {
    const message = AUTH_MESSAGES.forgotPinAccepted;
    const api = mockSignInApi()
      .on(routes.auth.login, { status: 202, body: { pinSetupRequired: true, name: 'Ada Lovelace', message: 'Create your 4-digit PIN to finish signing in' } })
      .on(routes.auth.forgotPin, { body: { message } });
    const rendered = await renderScreen();
    await fillLogin(rendered);
    await rendered.user.click(signInButton());
    await rendered.user.click(await screen.findByRole('button', { name: 'Ask the Admin for a Link' }));

    const card = screen.getByRole('region', { name: 'Ask for a PIN' });
    expect(card.textContent).toContain('sends you an enrollment link. Open it in this browser to create your PIN.');
    expect(within(card).getByRole('combobox', { name: 'Name' })).toHaveProperty('value', 'Ada Lovelace');
    await rendered.user.click(within(card).getByRole('button', { name: 'Send Request' }));

    await expectToast('Request sent', message);
    // One answer for both requests: it speaks of creating a PIN, never of resetting one the member never had.
    expect(message).not.toMatch(/reset/i);
    expect(api.requests(routes.auth.forgotPin).map((request) => request.body)).toEqual([{ memberName: 'Ada Lovelace' }]);
    expect(heading().textContent).toBe('Team Sign In');
  });

  test('a 202 with an enrollment link shows the setup form with the name and password kept and the server message', async () => {
    mockSignInApi({ enrollment: { state: 'valid', memberName: 'Ada Lovelace' } }).on(routes.auth.login, {
      status: 202,
      body: { pinSetupRequired: true, name: 'Ada Lovelace', message: 'Choose your PIN now' },
    });
    const rendered = await renderScreen();
    // The link opens PIN setup first; Back leads to the login, with the name still filled in.
    await rendered.user.click(screen.getByRole('button', { name: 'Back' }));
    expect(heading().textContent).toBe('Team Sign In');
    await fillLogin(rendered, { name: '' });
    await rendered.user.click(signInButton());

    const card = await screen.findByRole('region', { name: 'Create Your PIN' });
    expect(card.textContent).toContain('Choose your PIN now');
    expect(within(card).getByRole('combobox', { name: 'Name' })).toHaveProperty('value', 'Ada Lovelace');
    expect(within(card).getByLabelText('Team password')).toHaveProperty('value', 'team-secret');
    expect(within(card).getByLabelText('New PIN')).toHaveProperty('value', '');
  });

  test('a 400 with code PIN_REQUIRED opens PIN setup whatever its message says', async () => {
    mockSignInApi().on(routes.auth.login, { status: 400, error: { code: 'PIN_REQUIRED', message: 'Reworded by the server' } });
    const rendered = await renderScreen();
    await fillLogin(rendered);
    await rendered.user.click(signInButton());

    const card = await screen.findByRole('region', { name: 'Create Your PIN' });
    expect(card.textContent).toContain('Signing in as Ada Lovelace needs a PIN.');
    expect(screen.queryByText('Login failed')).toBeNull();
  });

  test("the message 'PIN is required' under another code is a plain failure", async () => {
    mockSignInApi().on(routes.auth.login, { status: 400, error: { code: 'VALIDATION_FAILED', message: AUTH_MESSAGES.pinRequired } });
    const rendered = await renderScreen();
    await fillLogin(rendered);
    await rendered.user.click(signInButton());

    await expectToast('Login failed', AUTH_MESSAGES.pinRequired);
    expect(heading().textContent).toBe('Team Sign In');
  });

  test("shows 'Signing in...' and keeps the button disabled while the call runs", async () => {
    const answer = deferred<Answer<CurrentUser>>();
    mockSignInApi().on(routes.auth.login, () => answer.promise);
    const rendered = await renderScreen();
    await fillLogin(rendered, { pin: '4831' });
    await rendered.user.click(signInButton());

    const pending = screen.getByRole('button', { name: 'Signing in...' });
    expect(pending).toHaveProperty('disabled', true);
    expect(screen.getByRole('button', { name: 'Forgot your PIN?' })).toHaveProperty('disabled', true);
    answer.resolve({ body: ADA });
    await expectToast('Welcome!', "You're now logged in as Ada Lovelace");
  });
});

describe('quick login', () => {
  test('a remembered device asks only the PIN, four digits before Sign In', async () => {
    const api = mockSignInApi({ rememberedName: 'Ada Lovelace' }).on(routes.auth.quickLogin, { body: ADA });
    const { user } = await renderScreen();
    expect(heading().textContent).toBe('Welcome Back');
    expect(screen.getByText('Ada Lovelace')).toBeTruthy();
    expect(screen.queryByLabelText('Team password')).toBeNull();

    await user.type(screen.getByLabelText('PIN'), '483');
    expect(signInButton()).toHaveProperty('disabled', true);
    await user.type(screen.getByLabelText('PIN'), '1');
    await user.click(signInButton());

    await expectToast('Welcome back!', '');
    expect(api.requests(routes.auth.quickLogin).map((request) => request.body)).toEqual([{ name: 'Ada Lovelace', pin: '4831' }]);
  });

  test('a 400 with code PIN_NOT_SET opens PIN setup for the remembered name', async () => {
    mockSignInApi({ rememberedName: 'Ada Lovelace' }).on(routes.auth.quickLogin, { status: 400, error: { code: 'PIN_NOT_SET', message: AUTH_MESSAGES.pinNotSet } });
    const { user } = await renderScreen();
    await user.type(screen.getByLabelText('PIN'), '4831');
    await user.click(signInButton());

    const card = await screen.findByRole('region', { name: 'Create Your PIN' });
    expect(card.textContent).toContain('Signing in as Ada Lovelace needs a PIN.');
    expect(screen.queryByText('Login failed')).toBeNull();
  });

  test('a wrong PIN is a failure toast, an empty PIN and a fresh device check', async () => {
    const api = mockSignInApi({ rememberedName: 'Ada Lovelace' }).on(routes.auth.quickLogin, {
      status: 401,
      error: { code: 'INVALID_CREDENTIALS', message: AUTH_MESSAGES.invalidCredentials },
    });
    const { user } = await renderScreen();
    await user.type(screen.getByLabelText('PIN'), '4831');
    await user.click(signInButton());

    await expectToast('Login failed', AUTH_MESSAGES.invalidCredentials);
    expect(screen.getByLabelText('PIN')).toHaveProperty('value', '');
    await waitFor(() => {
      expect(api.requests(routes.auth.checkSession)).toHaveLength(2);
    });
  });
});

describe('PIN setup from an enrollment link', () => {
  test("opens 'Create Your PIN' with the link's member filled in", async () => {
    mockSignInApi({ enrollment: { state: 'valid', memberName: 'Ada Lovelace' } });
    await renderScreen();
    const card = screen.getByRole('region', { name: 'Create Your PIN' });
    expect(card.textContent).toContain('Welcome, Ada Lovelace!');
    expect(within(card).getByRole('combobox', { name: 'Name' })).toHaveProperty('value', 'Ada Lovelace');
    expect(document.activeElement).toBe(within(card).getByLabelText('Team password'));
  });

  test('a guessable PIN is explained with its reason and cannot be submitted', async () => {
    const api = mockSignInApi({ enrollment: { state: 'valid', memberName: 'Ada Lovelace' } });
    const { user } = await renderScreen();
    const submit = screen.getByRole('button', { name: 'Create PIN and Sign In' });
    await user.type(screen.getByLabelText('Team password'), 'team-secret');
    const pin = screen.getByLabelText('New PIN');
    await user.type(pin, '1234');

    expect(screen.getByText(PIN_REASONS.run)).toBeTruthy();
    expect(pin.getAttribute('aria-invalid')).toBe('true');
    expect(submit).toHaveProperty('disabled', true);
    await user.type(pin, '{Enter}');
    expect(api.requests(routes.auth.setupPin)).toHaveLength(0);

    await user.clear(pin);
    await user.type(pin, '1987');
    expect(screen.getByText(PIN_REASONS.year)).toBeTruthy();
    expect(submit).toHaveProperty('disabled', true);

    await user.clear(pin);
    await user.type(pin, '4831');
    for (const reason of Object.values(PIN_REASONS)) expect(screen.queryByText(reason)).toBeNull();
    expect(submit).toHaveProperty('disabled', false);
  });

  test('the eye button shows and hides the new PIN', async () => {
    mockSignInApi({ enrollment: { state: 'valid', memberName: 'Ada Lovelace' } });
    const { user } = await renderScreen();
    const pin = screen.getByLabelText('New PIN');
    const eye = screen.getByRole('button', { name: 'Show PIN' });
    expect(pin.getAttribute('type')).toBe('password');
    await user.click(eye);
    expect(eye.getAttribute('aria-pressed')).toBe('true');
    expect(pin.getAttribute('type')).toBe('text');
  });

  test('creates the PIN and signs in', async () => {
    const api = mockSignInApi({ enrollment: { state: 'valid', memberName: 'Ada Lovelace' } }).on(routes.auth.setupPin, { body: ADA });
    const rendered = await renderScreen();
    await rendered.user.type(screen.getByLabelText('Team password'), 'team-secret');
    await rendered.user.type(screen.getByLabelText('New PIN'), '4831');
    await rendered.user.click(screen.getByRole('button', { name: 'Create PIN and Sign In' }));

    await expectToast('PIN Setup Complete!', 'Welcome, Ada Lovelace! Your PIN has been set up successfully.');
    expect(api.requests(routes.auth.setupPin).map((request) => request.body)).toEqual([{ password: 'team-secret', name: 'Ada Lovelace', pin: '4831' }]);
    expect(rendered.queryClient.getQueryData(queryKeys.user)).toEqual(ADA);
  });

  test('PIN_ALREADY_SET leads back to the login', async () => {
    mockSignInApi({ enrollment: { state: 'valid', memberName: 'Ada Lovelace' } }).on(routes.auth.setupPin, {
      status: 409,
      error: { code: 'PIN_ALREADY_SET', message: AUTH_MESSAGES.pinAlreadySet },
    });
    const { user } = await renderScreen();
    await user.type(screen.getByLabelText('Team password'), 'team-secret');
    await user.type(screen.getByLabelText('New PIN'), '4831');
    await user.click(screen.getByRole('button', { name: 'Create PIN and Sign In' }));

    await expectToast('PIN Setup Failed', AUTH_MESSAGES.pinAlreadySet);
    expect(heading().textContent).toBe('Team Sign In');
  });

  test('a used or expired link is explained above the login', async () => {
    mockSignInApi({ enrollment: { state: 'invalid' } });
    await renderScreen();
    expect(screen.getByRole('alert').textContent).toContain('This enrollment link no longer works');
    expect(heading().textContent).toBe('Team Sign In');
  });

  test('over the sign-in limit, says when to retry (Retry-After) and opens the link by itself then', async () => {
    let asked = 0;
    mockSignInApi().on(routes.auth.enrollment, (): Answer<EnrollmentStatus> => {
      asked += 1;
      return asked === 1
        ? { status: 429, error: { code: 'RATE_LIMITED', message: 'Too many sign-in attempts from this address; try again in 1 second' }, headers: { 'Retry-After': '1' } }
        : { body: { state: 'valid', memberName: 'Ada Lovelace' } };
    });
    await renderScreen();
    expect(screen.getByRole('alert').textContent).toBe(
      'Too many sign-in attempts from this address. Your enrollment link is kept: try again in 1 second, and this page checks it again by itself then.',
    );
    expect(heading().textContent).toBe('Team Sign In');

    expect(await screen.findByRole('heading', { level: 1, name: 'Create Your PIN' }, { timeout: 5_000 })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('combobox', { name: 'Name' })).toHaveProperty('value', 'Ada Lovelace');
  });
});

describe('forgot PIN', () => {
  test('asks a name only, sends it trimmed and returns to the login with the server message', async () => {
    const message = AUTH_MESSAGES.forgotPinAccepted;
    const api = mockSignInApi().on(routes.auth.forgotPin, { body: { message } });
    const { user } = await renderScreen();
    await user.click(screen.getByRole('button', { name: 'Forgot your PIN?' }));

    const card = screen.getByRole('region', { name: 'Reset PIN' });
    expect(within(card).queryByLabelText('Team password')).toBeNull();
    expect(within(card).queryByLabelText('PIN')).toBeNull();
    const submit = within(card).getByRole('button', { name: 'Request PIN Reset' });
    expect(submit).toHaveProperty('disabled', true);
    await user.type(within(card).getByRole('combobox', { name: 'Name' }), '  ');
    expect(submit).toHaveProperty('disabled', true);
    await user.type(within(card).getByRole('combobox', { name: 'Name' }), 'Ada Lovelace ');
    await user.click(submit);

    await expectToast('Request sent', message);
    expect(api.requests(routes.auth.forgotPin).map((request) => request.body)).toEqual([{ memberName: 'Ada Lovelace' }]);
    expect(heading().textContent).toBe('Team Sign In');
  });

  test('keeps the name typed on the login, and shows a refusal with its message', async () => {
    mockSignInApi().on(routes.auth.forgotPin, { status: 429, error: { code: 'RATE_LIMITED', message: 'Too many requests, try again in a minute' } });
    const rendered = await renderScreen();
    await fillLogin(rendered, { password: '' });
    await rendered.user.click(screen.getByRole('button', { name: 'Forgot your PIN?' }));
    const name = screen.getByRole('combobox', { name: 'Name' });
    expect(name).toHaveProperty('value', 'Ada Lovelace');
    await rendered.user.click(screen.getByRole('button', { name: 'Request PIN Reset' }));

    await expectToast('Request not sent', 'Too many requests, try again in a minute');
    expect(heading().textContent).toBe('Reset PIN');
  });
});
