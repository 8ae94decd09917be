import { useEffect, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { PUSH_KIND_LABELS, PUSH_KINDS, type PushKind } from '#shared/domain/push-alerts.ts';
import { pushKeys, pushMutations, pushQueries } from '#client/api/queries/push.ts';
import { deviceSubscription, pushSupport, turnOffPush, turnOnPush, type PushSupport } from '#client/push/device-push.ts';
import { pushErrorText } from '#client/push/push-error.ts';

const SUPPORT_TEXT: Record<Exclude<PushSupport, 'ready'>, string> = {
  install:
    'On iPhone and iPad, alerts reach the app added to the Home Screen (iOS 16.4 or later): in Safari tap Share, then “Add to Home Screen”, open the app from there and turn alerts on.',
  blocked: 'Notifications are blocked for this site: allow them in the browser’s site settings, then come back here.',
  unsupported: 'This browser cannot receive alerts when the app is closed.',
};

/**
 * The top of the notifications panel: whether this device receives the alerts that matter when the
 * app is closed (Web Push), and which kinds reach every device of the user.
 */
export function PushSettings() {
  const [support] = useState(pushSupport);
  const [on, setOn] = useState<boolean | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const client = useQueryClient();
  const preferences = useQuery({ ...pushQueries.preferences(), enabled: on === true });
  const kinds = useMutation({ ...pushMutations.kinds(client), onError: (err) => setError(err.message) });

  useEffect(() => {
    if (support !== 'ready') return;
    let live = true;
    void deviceSubscription()
      .then((s) => live && setOn(s !== null))
      .catch(() => live && setOn(false));
    return () => {
      live = false;
    };
  }, [support]);

  if (support !== 'ready') {
    return (
      <section className="push-settings" aria-label="Alerts on this device">
        <p className="push-note">{SUPPORT_TEXT[support]}</p>
      </section>
    );
  }

  const toggle = async () => {
    setBusy(true);
    setError(null);
    try {
      if (on) await turnOffPush();
      else await turnOnPush();
      setOn(!on);
      await client.invalidateQueries({ queryKey: pushKeys.preferences() });
    } catch (err) {
      setError(pushErrorText(err, Notification.permission));
    } finally {
      setBusy(false);
    }
  };

  const chosen = new Set<PushKind>(preferences.data?.kinds ?? PUSH_KINDS);
  return (
    <section className="push-settings" aria-label="Alerts on this device">
      <div className="push-row">
        <span>{on ? 'Alerts reach this device when the app is closed.' : 'Get alerts on this device when the app is closed.'}</span>
        <button type="button" className="push-toggle" onClick={() => void toggle()} disabled={busy || on === null}>
          {on ? 'Turn off' : 'Turn on'}
        </button>
      </div>
      {on && preferences.data ? (
        <fieldset className="push-kinds" disabled={kinds.isPending}>
          <legend>Alerts sent to your devices</legend>
          {PUSH_KINDS.map((kind) => (
            <label key={kind}>
              <input
                type="checkbox"
                checked={chosen.has(kind)}
                onChange={(e) => {
                  const next = PUSH_KINDS.filter((k) => (k === kind ? e.target.checked : chosen.has(k)));
                  kinds.mutate(next);
                }}
              />
              {PUSH_KIND_LABELS[kind]}
            </label>
          ))}
        </fieldset>
      ) : null}
      {error ? (
        <p className="push-error" role="alert">
          {error}
        </p>
      ) : null}
    </section>
  );
}
