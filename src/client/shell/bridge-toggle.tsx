import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { bridgeMutations, bridgeQueries } from '#client/api/queries/bridge.ts';

/**
 * Bridge On/Off switch for write users (docs/product.md#screens, §4): on starts copying, off stops it. The switch
 * moves at once (optimistic), reads 'Updating...' while the call is pending and moves back when it
 * fails; the failure is logged (docs/product.md#errors), and the state is then read again from the server.
 */
export function BridgeToggle() {
  const queryClient = useQueryClient();
  const status = useQuery(bridgeQueries.status());
  const mutation = useMutation(bridgeMutations.toggle(queryClient));


  const running = status.data?.running;
  const pending = mutation.isPending;
  const known = running !== undefined;
  const label = pending ? 'Updating...' : known ? (running ? 'On' : 'Off') : '…';

  return (
    <button
      type="button"
      role="switch"
      className={`bridge-toggle${running ? ' on' : ''}`}
      aria-checked={running ?? false}
      aria-label="Bridge"
      aria-busy={pending}
      // aria-disabled rather than disabled while pending, so keyboard focus stays on the switch.
      aria-disabled={pending || !known}
      title={known ? `Data bridge ${running ? 'on: master trades are copied' : 'off: copying paused'}` : 'Data bridge'}
      onClick={() => {
        if (known && !pending) mutation.mutate(!running);
      }}
    >
      <span className="bridge-toggle-name">Bridge</span>
      <span className="bridge-toggle-track" aria-hidden="true">
        <span className="bridge-toggle-thumb" />
      </span>
      <span className="bridge-toggle-state" data-testid="bridge-state">
        {label}
      </span>
    </button>
  );
}
