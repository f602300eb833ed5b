import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeListUser, signIn } from '@/testing/fixtures';
import { mockApi } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';

const users = [
  makeListUser({ _id: 'a1', name: 'Ada Admin', email: 'ada@example.com', isAdmin: true }),
  makeListUser({ _id: 'u1', name: 'Alice Buyer', email: 'alice@example.com', isAdmin: false }),
];

function rows() {
  return within(screen.getByRole('table')).getAllByRole('row').slice(1) as HTMLElement[];
}

describe('UserListPage', () => {
  it('lists ID, NAME, EMAIL (mailto) and ADMIN; admins show no actions, others edit and delete', async () => {
    signIn({ _id: 'a1', isAdmin: true });
    mockApi({ 'GET /api/users': users });
    renderApp('/admin/userlist');

    const table = await screen.findByRole('table');
    const headers = within(table).getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers.slice(0, 4)).toEqual(['ID', 'NAME', 'EMAIL', 'ADMIN']);

    const [admin, alice] = rows();
    expect(within(admin!).getByRole('link', { name: 'ada@example.com' })).toHaveAttribute('href', 'mailto:ada@example.com');
    expect(within(admin!).getByRole('img', { name: 'Admin' })).toBeInTheDocument();
    expect(within(admin!).queryByRole('button')).not.toBeInTheDocument();
    expect(within(admin!).queryByRole('link', { name: /edit/i })).not.toBeInTheDocument();

    expect(within(alice!).getByRole('img', { name: 'Not admin' })).toBeInTheDocument();
    expect(within(alice!).getByRole('link', { name: 'Edit Alice Buyer' })).toHaveAttribute('href', '/admin/user/u1/edit');
    expect(within(alice!).getByRole('button', { name: 'Delete Alice Buyer' })).toBeInTheDocument();
  });

  it("asks 'Are you sure' before deleting and sends nothing when cancelled", async () => {
    signIn({ _id: 'a1', isAdmin: true });
    const { sent } = mockApi({ 'GET /api/users': users, 'DELETE /api/users/u1': { message: 'User removed' } });
    renderApp('/admin/userlist');

    await userEvent.click(await screen.findByRole('button', { name: 'Delete Alice Buyer' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Are you sure' });
    expect(dialog).toHaveTextContent('Delete the user Alice Buyer');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(sent('DELETE /api/users/u1')).toHaveLength(0);

    await userEvent.click(screen.getByRole('button', { name: 'Delete Alice Buyer' }));
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('User removed')).toBeInTheDocument();
    expect(sent('DELETE /api/users/u1')).toHaveLength(1);
    // The list is refetched through the shared key.
    expect(sent('GET /api/users').length).toBeGreaterThanOrEqual(2);
  });
});
