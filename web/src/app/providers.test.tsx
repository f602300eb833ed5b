import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { api } from '@/lib/api-client';
import { signIn } from '@/testing/fixtures';
import { mockApi, reply } from '@/testing/mock-api';
import { AppProviders } from './providers';

/** A money action as a screen sends it: shows what the api finally answered. */
function Withdraw() {
  const [result, setResult] = useState('');
  return (
    <>
      <button type="button" onClick={() => void api.post<{ message: string }>('/api/money').then((r) => setResult(r.message), (e: Error) => setResult(`failed: ${e.message}`))}>
        Withdraw
      </button>
      <output>{result}</output>
    </>
  );
}

describe('the step-up dialog', () => {
  it('is not in the page until it is needed, and a call that asks for a second factor first loads it, asks once and is sent again', async () => {
    signIn();
    let calls = 0;
    const { sent } = mockApi({
      'POST /api/money': () => (calls++ === 0 ? reply(403, { message: 'Confirm it is you', stepUpRequired: true }) : { message: 'sent' }),
      'GET /api/users/2fa': { totp: true, passkeys: [], recoveryCodesLeft: 8 },
      'POST /api/users/2fa/step-up': { message: 'ok' },
    });
    render(
      <AppProviders>
        <Withdraw />
      </AppProviders>,
    );
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    // The call is made without a press anywhere (a press would load the dialog by itself).
    screen.getByRole('button', { name: 'Withdraw' }).click();
    const dialog = await screen.findByRole('dialog', { name: 'Confirm it is you' });
    await userEvent.type(screen.getByLabelText('Authentication code'), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('sent'));
    expect(dialog).not.toBeInTheDocument();
    expect(sent('POST /api/users/2fa/step-up')).toHaveLength(1);
    expect(sent('POST /api/money')).toHaveLength(2);
  });
});
