/** @module One memory in the timeline: time, speakers, the chunk text with speakers set apart, where it came from. */
import type { PointMessage, TimelinePoint } from '../../src/wire/viewer.js';
import { pointTime, splitChunkText } from './format.js';

export function SourceBadges(props: {
  point: Pick<TimelinePoint, 'source' | 'channelId' | 'guildId' | 'isDm'>;
}) {
  const { point } = props;
  return (
    <span class="badges">
      {point.source === undefined ? (
        <span class="badge st">SillyTavern</span>
      ) : (
        <span class="badge source">{point.source}</span>
      )}
      {point.isDm && <span class="badge dm">DM</span>}
      {point.guildId && <span class="badge place">guild {point.guildId}</span>}
      {point.channelId && <span class="badge place">channel {point.channelId}</span>}
    </span>
  );
}

export function ChunkText(props: { text: string; speakers: string }) {
  return (
    <div class="chunk-text">
      {splitChunkText(props.text, props.speakers).map((line, index) => (
        <p key={index}>
          {line.speaker !== undefined && <strong class="speaker">{line.speaker}:</strong>} {line.text}
        </p>
      ))}
    </div>
  );
}

/** Who wrote a journal message, as the page names them. */
export const speakerOf = (message: PointMessage): string =>
  message.speaker_kind === 'self' ? 'the companion' : (message.speaker_name ?? message.user_id ?? 'a person');

export interface CardActions {
  /** Opens the memory: its editor, or (`readOnly`) its details for a key that may not change it. */
  readonly onOpen?: () => void;
  readonly readOnly?: boolean;
  readonly onForget?: () => void;
}

export function MemoryCard(props: {
  point: TimelinePoint;
  actions: CardActions;
  onFocusMove: (step: number) => void;
}) {
  const { point, actions } = props;
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.target !== event.currentTarget) return;
    if (event.key === 'ArrowDown' || event.key === 'j') props.onFocusMove(1);
    else if (event.key === 'ArrowUp' || event.key === 'k') props.onFocusMove(-1);
    else if (event.key === 'Enter' && actions.onOpen) actions.onOpen();
    else if ((event.key === 'Delete' || event.key === 'Backspace') && actions.onForget) actions.onForget();
    else return;
    event.preventDefault();
  };
  const label = `${pointTime(point)}, ${point.speakers || 'no speakers'}`;
  return (
    <article
      class="memory"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: each memory takes focus, so arrow keys, Enter and Delete act on it
      tabIndex={0}
      aria-label={label}
      data-point-id={String(point.id)}
      onKeyDown={onKeyDown}
    >
      <header>
        {point.undated ? (
          <span class="time">{pointTime(point)}</span>
        ) : (
          <time dateTime={new Date(point.timestamp).toISOString()}>{pointTime(point)}</time>
        )}
        <span class="speakers">{point.speakers}</span>
        <SourceBadges point={point} />
      </header>
      <ChunkText text={point.text} speakers={point.speakers} />
      {(actions.onOpen || actions.onForget) && (
        <footer>
          {actions.onOpen && (
            <button type="button" class="small" tabIndex={-1} onClick={actions.onOpen}>
              {actions.readOnly ? 'Details' : 'Edit'}
            </button>
          )}
          {actions.onForget && (
            <button type="button" tabIndex={-1} class="danger small" onClick={actions.onForget}>
              Forget
            </button>
          )}
        </footer>
      )}
    </article>
  );
}
