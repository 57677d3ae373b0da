/** @module The confirmation every forget passes: exact counts first, Cancel focused, then what the service did. */
import { useState } from 'preact/hooks';
import { ErrorAlert } from './error-alert.js';
import type { ForgetPlan, ForgetTotals } from './forget-plans.js';
import { formatCount } from './format.js';
import { Modal } from './modal.js';

export function ConfirmForget(props: {
  plan: ForgetPlan;
  /** Called as soon as the service has forgotten, while the result is still shown. */
  onForgotten: (totals: ForgetTotals) => void;
  onClose: (changed: boolean) => void;
}) {
  const { plan } = props;
  const [running, setRunning] = useState(false);
  const [done, setDone] = useState<ForgetTotals | null>(null);
  const [error, setError] = useState<string | null>(null);
  const nothing = plan.points === 0 && plan.messages === 0;
  const what = plan.rewrites
    ? `${formatCount(plan.messages, 'message')} will be forgotten; its memory stays, rewritten and re-embedded without it.`
    : `${formatCount(plan.points, 'memory', 'memories')} and ${formatCount(plan.messages, 'message')} will be forgotten.`;

  const run = async () => {
    setRunning(true);
    setError(null);
    try {
      const totals = await plan.run();
      setDone(totals);
      props.onForgotten(totals);
    } catch (caught) {
      setError((caught as Error).message);
    } finally {
      setRunning(false);
    }
  };

  return (
    <Modal title={done ? 'Forgotten' : plan.title} onClose={() => props.onClose(done !== null)}>
      {done ? (
        <p class="forget-result" role="status">
          {formatCount(done.messages_forgotten, 'message')} forgotten;{' '}
          {formatCount(done.points_deleted, 'memory', 'memories')} deleted,{' '}
          {formatCount(done.points_rewritten, 'memory', 'memories')} rewritten
          {done.pending_dropped > 0
            ? `, ${formatCount(done.pending_dropped, 'unstored message')} dropped`
            : ''}
          .
        </p>
      ) : (
        <>
          <p class="forget-counts" data-points={plan.points} data-messages={plan.messages}>
            {nothing ? 'Nothing here can be forgotten with this key.' : what}
          </p>
          {plan.kept > 0 && (
            <p class="note">
              {formatCount(plan.kept, 'matching memory', 'matching memories')} will stay: SillyTavern's own,
              or written by a source this key may not forget.
            </p>
          )}
          {!nothing && (
            <p class="note">
              Forgotten messages are tombstoned (a re-sent window never brings them back) and the forget is in
              the audit log. This cannot be undone.
            </p>
          )}
        </>
      )}
      <ErrorAlert error={error} />
      <div class="actions">
        {done ? (
          <button type="button" autofocus onClick={() => props.onClose(true)}>
            Close
          </button>
        ) : (
          <>
            <button type="button" autofocus onClick={() => props.onClose(false)} disabled={running}>
              Cancel
            </button>
            {!nothing && (
              <button type="button" class="danger" onClick={run} disabled={running}>
                {running
                  ? 'Forgetting…'
                  : plan.rewrites
                    ? 'Forget the message'
                    : `Forget ${formatCount(plan.points, 'memory', 'memories')}`}
              </button>
            )}
          </>
        )}
      </div>
    </Modal>
  );
}
