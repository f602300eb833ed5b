import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeListUser, makeUser, signIn } from '@/testing/fixtures';
import { mockApi, reply } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';

const bob = makeUser({ _id: 'u2', name: 'Bob', email: 'bob@example.com', activeBalance: 12.5, passiveBalance: 3 });

describe('UserEditPage', () => {
  it('says when a large balance increase waits for a second admin instead of claiming it done', async () => {
    signIn({ _id: 'a1', isAdmin: true });
    mockApi({
      'GET /api/users/u2': bob,
      'PUT /api/users/u2': reply(202, { ...bob, pendingApproval: { _id: 'ap1', amountUsd: 987.5 } }),
      'GET /api/users': [makeListUser({ _id: 'u2', name: 'Bob' })],
    });
    renderApp('/admin/user/u2/edit');
    const active = await screen.findByLabelText('Active Balance');
    await userEvent.clear(active);
    await userEvent.type(active, '1000');
    await userEvent.click(screen.getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('Saved. The balance increase of $987.50 waits for a second admin.')).toBeInTheDocument();
    expect(screen.queryByText('user updated successfully')).not.toBeInTheDocument();
  });

  it('says in sentences what waits for a second admin: admin rights, and a balance increase with them', async () => {
    signIn({ _id: 'a1', isAdmin: true });
    let both = false;
    mockApi({
      'GET /api/users/u2': bob,
      'PUT /api/users/u2': () =>
        reply(202, { ...bob, pendingAdminGrant: { _id: 'ap2' }, ...(both ? { pendingApproval: { _id: 'ap1', amountUsd: 987.5 } } : {}) }),
      'GET /api/users': [makeListUser({ _id: 'u2', name: 'Bob' })],
    });
    const { router } = renderApp('/admin/user/u2/edit');
    await userEvent.click(await screen.findByLabelText('Is Admin'));
    await userEvent.click(screen.getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('Saved. Admin rights wait for a second admin.')).toBeInTheDocument();

    both = true;
    await router.navigate('/admin/user/u2/edit');
    await userEvent.click(await screen.findByRole('button', { name: 'Update' }));
    expect(await screen.findByText('Saved. The balance increase of $987.50 and admin rights wait for a second admin.')).toBeInTheDocument();
  });

  it('asks why only for what may wait for a second admin (more money, admin rights), and sends the reason', async () => {
    signIn({ _id: 'a1', isAdmin: true });
    const { sent } = mockApi({
      'GET /api/users/u2': bob,
      'PUT /api/users/u2': reply(202, { ...bob, pendingApproval: { _id: 'ap1', amountUsd: 987.5 } }),
      'GET /api/users': [makeListUser({ _id: 'u2', name: 'Bob' })],
    });
    renderApp('/admin/user/u2/edit');
    const active = await screen.findByLabelText('Active Balance');
    // A lower balance never waits: no question.
    await userEvent.clear(active);
    await userEvent.type(active, '10');
    expect(screen.queryByLabelText('Reason for a second admin')).not.toBeInTheDocument();
    await userEvent.clear(active);
    await userEvent.type(active, '1000');
    const reason = screen.getByLabelText('Reason for a second admin');
    expect(reason).toHaveAccessibleDescription('If this change waits for a second admin, they read this before they approve it.');
    await userEvent.type(reason, 'Goodwill for ORD-12');
    await userEvent.click(screen.getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('Saved. The balance increase of $987.50 waits for a second admin.')).toBeInTheDocument();
    expect(sent('PUT /api/users/u2')[0]?.body).toMatchObject({ activeBalance: '1000', approvalReason: 'Goodwill for ORD-12' });
  });

  it("edits the user, says 'user updated successfully' and refreshes the user list", async () => {
    signIn({ _id: 'a1', isAdmin: true });
    const { sent } = mockApi({
      'GET /api/users/u2': bob,
      'PUT /api/users/u2': { ...bob, name: 'Robert', isAdmin: true },
      'GET /api/users': [makeListUser({ _id: 'u2', name: 'Robert' })],
    });
    const { router } = renderApp('/admin/user/u2/edit');

    const name = await screen.findByLabelText('Name');
    expect(name).toHaveValue('Bob');
    expect(screen.getByLabelText('Email Address')).toHaveValue('bob@example.com');
    expect(screen.getByLabelText('Active Balance')).toHaveValue(12.5);
    expect(screen.getByLabelText('Passive Balance')).toHaveValue(3);
    expect(screen.getByLabelText('Password')).toHaveValue('');
    const isAdmin = screen.getByRole('checkbox', { name: 'Is Admin' });
    expect(isAdmin).not.toBeChecked();

    await userEvent.clear(name);
    await userEvent.type(name, 'Robert');
    await userEvent.click(isAdmin);
    await userEvent.click(screen.getByRole('button', { name: 'Update' }));

    expect(await screen.findByText('user updated successfully')).toBeInTheDocument();
    expect(sent('PUT /api/users/u2')[0]?.body).toEqual({
      userId: 'u2',
      name: 'Robert',
      email: 'bob@example.com',
      isAdmin: true,
      activeBalance: '12.5',
      passiveBalance: '3',
      loadedActiveBalance: 12.5,
      loadedPassiveBalance: 3,
      password: '',
    });
    await waitFor(() => expect(router.location.pathname).toBe('/admin/userlist'));
    expect(await screen.findByText('Robert')).toBeInTheDocument();
  });

  it('shows the 409 when a balance moved since the form was loaded, and stays on the form', async () => {
    signIn({ _id: 'a1', isAdmin: true });
    const message = 'The active balance changed since this form was loaded (it is now $0.00). Reload the user and enter the change again.';
    mockApi({ 'GET /api/users/u2': bob, 'PUT /api/users/u2': reply(409, { message }) });
    const { router } = renderApp('/admin/user/u2/edit');
    const active = await screen.findByLabelText('Active Balance');
    await userEvent.clear(active);
    await userEvent.type(active, '50');
    await userEvent.click(screen.getByRole('button', { name: 'Update' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(`Error: ${message}`);
    expect(router.location.pathname).toBe('/admin/user/u2/edit');
  });
});

