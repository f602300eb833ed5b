import { act, useState, type ReactElement } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FormField } from '@/components/form-field';
import { useValueBeforeApp } from './value-before-app';

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

/** A quantity picker as the product page has it. */
function Quantity() {
  const [qty, setQty] = useState(1);
  const field = useValueBeforeApp<HTMLSelectElement>((picked) => setQty(Number(picked)), qty);
  return (
    <>
      <select ref={field} value={qty} onChange={(event) => setQty(Number(event.target.value))}>
        {[1, 2, 3].map((n) => (
          <option key={n} value={n}>
            {n}
          </option>
        ))}
      </select>
      <output>{qty}</output>
    </>
  );
}

// hydrateRoot under act, as Testing Library's own renders are.
const scope = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean };
const before = scope.IS_REACT_ACT_ENVIRONMENT;
beforeAll(() => {
  scope.IS_REACT_ACT_ENVIRONMENT = true;
});
afterAll(() => {
  scope.IS_REACT_ACT_ENVIRONMENT = before;
});

/**
 * A page drawn on the server from `element`, changed by `before` as a visitor would before
 * the app's code has run, then hydrated: returns the page, in the document.
 */
async function drawnThenHydrated(element: ReactElement, before: (page: HTMLElement) => void = () => {}): Promise<HTMLElement> {
  const page = document.createElement('div');
  page.innerHTML = renderToString(element);
  document.body.append(page);
  before(page);
  await act(async () => {
    hydrateRoot(page, element);
  });
  return page;
}

describe('useValueBeforeApp', () => {
  it("takes text put into a drawn page's field before the app ran into the app's state", async () => {
    // A password manager fills the field before the app's code has run.
    const page = await drawnThenHydrated(<SignIn />, (drawn) => (drawn.querySelector('input')!.value = 'buyer@example.com'));
    expect(page.querySelector('output')).toHaveTextContent('buyer@example.com');
    expect(page.querySelector('input')).toHaveValue('buyer@example.com');
    page.remove();
  });

  it('takes a quantity picked on the drawn page before the app ran', async () => {
    const page = await drawnThenHydrated(<Quantity />, (drawn) => (drawn.querySelector('select')!.value = '3'));
    expect(page.querySelector('output')).toHaveTextContent('3');
    page.remove();
  });

  it('leaves a field drawn empty and left empty as it is', async () => {
    const page = await drawnThenHydrated(<SignIn />);
    expect(page.querySelector('output')?.textContent).toBe('');
    page.remove();
  });
});
