/**
 * @module One memory, read-only, for a key that may not change it (Enter on its card): where it came from, its
 * point id, and each message with its speaker and id (SillyTavern's points: the ids their payload holds).
 */
import { useEffect, useState } from 'preact/hooks';
import { readHeldMessageIds } from '../../src/chunking/held-message-ids.js';
import type { PointDetailResponse, TimelinePoint } from '../../src/wire/viewer.js';
import { botPath, getJson } from './api.js';
import { ErrorAlert } from './error-alert.js';
import { formatTime, pointDay, pointTime } from './format.js';
import { ChunkText, speakerOf } from './memory-card.js';
import { Modal } from './modal.js';

export function PointDetail(props: { bot: string; point: TimelinePoint; onClose: () => void }) {
  const { bot, point } = props;
  const [detail, setDetail] = useState<PointDetailResponse | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    getJson<PointDetailResponse>(botPath(bot, `points/${encodeURIComponent(String(point.id))}`)).then(
      setDetail,
      (caught: Error) => setError(caught.message),
    );
  }, [bot, point.id]);

  return (
    <Modal title="This memory" onClose={props.onClose}>
      <dl class="point-facts">
        <dt>When</dt>
        <dd>{point.undated ? pointTime(point) : `${pointDay(point)}, ${pointTime(point)}`}</dd>
        <dt>Written by</dt>
        <dd>{point.source ?? 'SillyTavern'}</dd>
        <dt>Channel</dt>
        <dd>{point.channelId ?? (point.isDm ? 'a DM' : 'none')}</dd>
        <dt>Guild</dt>
        <dd>{point.guildId ?? 'none'}</dd>
        <dt>Point id</dt>
        <dd>
          <code>{String(point.id)}</code>
        </dd>
      </dl>
      {detail === null && !error && <p>Loading…</p>}
      {detail && detail.messages.length > 0 && (
        <ol class="point-messages" aria-label="Messages">
          {detail.messages.map((message) => (
            <li key={`${message.source}:${message.message_id}`}>
              <p class="meta">
                <strong class="speaker">{speakerOf(message)}</strong> · {formatTime(message.ts)} · id{' '}
                <code>{message.message_id}</code>
              </p>
              <p>{message.text}</p>
            </li>
          ))}
        </ol>
      )}
      {detail && detail.messages.length === 0 && (
        <>
          <ChunkText text={detail.point.text} speakers={detail.point.speakers} />
          <p class="meta">
            Message ids:{' '}
            {readHeldMessageIds(detail.point.messageIds).map((id) => (
              <code key={id}>{id} </code>
            ))}
          </p>
        </>
      )}
      <ErrorAlert error={error} />
      <div class="actions">
        <button type="button" autofocus onClick={props.onClose}>
          Close
        </button>
      </div>
    </Modal>
  );
}
