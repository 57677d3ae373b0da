/**
 * @module Correcting a memory. memory-pool's points: each message edited through `POST /save` (same id, new
 * text: the journal's edit path rebuilds and re-embeds the chunk under the same id). SillyTavern's points:
 * the text itself, re-embedded in place (`PUT /bots/{bot}/points/{id}/text`, admin).
 */
import { useEffect, useState } from 'preact/hooks';
import type {
  PointDetailResponse,
  PointMessage,
  TimelinePoint,
  WhoamiResponse,
} from '../../src/wire/viewer.js';
import { botPath, getJson, postJson, putJson } from './api.js';
import { ErrorAlert } from './error-alert.js';
import { type ForgetPlan, planForgetMessage } from './forget-plans.js';
import { formatTime, pointTime } from './format.js';
import { SourceBadges, speakerOf } from './memory-card.js';
import { Modal } from './modal.js';
import { can } from './session.js';

/** The `/save` message that edits `message` to `text` (everything else as the journal holds it). */
function toSaveMessage(message: PointMessage, text: string) {
  const { source: _source, ...rest } = message;
  return { ...rest, text };
}

export function PointEditor(props: {
  bot: string;
  point: TimelinePoint;
  who: WhoamiResponse;
  onForget: (plan: ForgetPlan) => void;
  onClose: (changed: boolean) => void;
}) {
  const { bot, point } = props;
  const [detail, setDetail] = useState<PointDetailResponse | null>(null);
  const [drafts, setDrafts] = useState<Record<string, string>>({});
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [changed, setChanged] = useState(false);
  const sillyTavern = point.source === undefined;
  const pointPath = botPath(bot, `points/${encodeURIComponent(String(point.id))}`);

  useEffect(() => {
    getJson<PointDetailResponse>(pointPath).then(setDetail, (caught: Error) => setError(caught.message));
  }, [pointPath]);

  const save = async () => {
    setSaving(true);
    setError(null);
    try {
      if (sillyTavern) {
        const text = drafts.text;
        if (text === undefined || text === point.text) return setStatus('Nothing changed.');
        await putJson(`${pointPath}/text`, { text });
        setStatus('Saved: the memory was re-embedded in place (same id).');
      } else {
        const edits = (detail?.messages ?? []).filter(
          (m) => drafts[m.message_id] !== undefined && drafts[m.message_id] !== m.text,
        );
        if (edits.length === 0) return setStatus('Nothing changed.');
        const answer = await postJson<{ edited: number }>('/save', {
          bot,
          source: point.source,
          messages: edits.map((m) => toSaveMessage(m, drafts[m.message_id] as string)),
        });
        setStatus(
          `Saved ${answer.edited} edited message${answer.edited === 1 ? '' : 's'}: the memory is rebuilt and re-embedded under the same id.`,
        );
      }
      setChanged(true);
    } catch (caught) {
      setError((caught as Error).message);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal title="Correct this memory" onClose={() => props.onClose(changed)}>
      <p class="meta">
        {pointTime(point)} · <SourceBadges point={point} />
      </p>
      {detail === null && !error && <p>Loading…</p>}
      {detail && sillyTavern && (
        <label class="field">
          Text (SillyTavern's point: re-embedded in place)
          <textarea
            rows={8}
            value={drafts.text ?? detail.point.text}
            onInput={(e) => setDrafts({ text: (e.target as HTMLTextAreaElement).value })}
          />
        </label>
      )}
      {detail && !sillyTavern && detail.messages.length === 0 && (
        <p class="note">The journal holds no messages for this memory, so it cannot be edited here.</p>
      )}
      {detail &&
        !sillyTavern &&
        detail.messages.map((message) => (
          <div class="message-edit" key={message.message_id}>
            <label class="field">
              {speakerOf(message)} · {formatTime(message.ts)}
              <textarea
                rows={3}
                value={drafts[message.message_id] ?? message.text}
                onInput={(e) =>
                  setDrafts({ ...drafts, [message.message_id]: (e.target as HTMLTextAreaElement).value })
                }
              />
            </label>
            {can(props.who, 'forget') && (
              <button
                type="button"
                class="danger small"
                onClick={() => props.onForget(planForgetMessage(bot, message, detail.messages.length))}
              >
                Forget this message
              </button>
            )}
          </div>
        ))}
      {status && (
        <p class="status" role="status">
          {status}
        </p>
      )}
      <ErrorAlert error={error} />
      <div class="actions">
        <button type="button" onClick={() => props.onClose(changed)}>
          Close
        </button>
        {detail && (sillyTavern || detail.messages.length > 0) && (
          <button type="button" class="primary" onClick={save} disabled={saving}>
            {saving ? 'Saving…' : 'Save'}
          </button>
        )}
      </div>
    </Modal>
  );
}
