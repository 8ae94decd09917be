// @vitest-environment happy-dom
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useState } from 'react';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MotionGlobalConfig } from 'framer-motion';
import { Modal } from './modal.tsx';

beforeAll(() => {
  MotionGlobalConfig.skipAnimations = true;
});
afterEach(cleanup);

function EditPosition() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Edit
      </button>
      <Modal open={open} onClose={() => setOpen(false)} title="Edit Position" footer={<button type="button">Save</button>}>
        <label>
          Take profit <input data-autofocus />
        </label>
      </Modal>
    </>
  );
}

async function openModal() {
  const user = userEvent.setup();
  render(<EditPosition />);
  const trigger = screen.getByRole('button', { name: 'Edit' });
  await user.click(trigger);
  const dialog = await screen.findByRole('dialog', { name: 'Edit Position' });
  return { user, trigger, dialog };
}

describe('Modal', () => {
  it('opens labelled by its title, with focus inside', async () => {
    const { dialog } = await openModal();
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    // Focus moves in once the dialog has mounted (its motion library loads on the first opening).
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Take profit' })));
  });

  it('closes on Escape and gives focus back to the trigger', async () => {
    const { user, trigger } = await openModal();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement).toBe(trigger);
  });

  it('closes on a click on the backdrop, not inside the dialog', async () => {
    const { user, dialog } = await openModal();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByRole('dialog')).toBeTruthy();
    await user.click(dialog.parentElement as HTMLElement);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('closes with its close button', async () => {
    const { user } = await openModal();
    await user.click(screen.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
