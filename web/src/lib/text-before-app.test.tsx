import { act, useState } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { FormField } from '@/components/form-field';

/** A form as a drawn page has it: its field's text in the app's state, shown beside it. */
function SignIn() {
  const [email, setEmail] = useState('');
  return (
    <form>
      <FormField label="Email" name="email" value={email} onValueChange={setEmail} />
      <output>{email}</output>
    </form>
  );
}

describe('useTextBeforeApp', () => {
  it("takes text put into a drawn page's field before the app ran into the app's state", async () => {
    const page = document.createElement('div');
    page.innerHTML = renderToString(<SignIn />);
    document.body.append(page);
    // A password manager fills the field before the app's code has run.
    page.querySelector('input')!.value = 'buyer@example.com';
    await act(async () => {
      hydrateRoot(page, <SignIn />);
    });
    expect(page.querySelector('output')).toHaveTextContent('buyer@example.com');
    expect(page.querySelector('input')).toHaveValue('buyer@example.com');
    page.remove();
  });

  it('leaves a field drawn empty and left empty as it is', async () => {
    const page = document.createElement('div');
    page.innerHTML = renderToString(<SignIn />);
    document.body.append(page);
    await act(async () => {
      hydrateRoot(page, <SignIn />);
    });
    expect(page.querySelector('output')?.textContent).toBe('');
    page.remove();
  });
});
