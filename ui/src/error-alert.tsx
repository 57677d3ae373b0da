/** @module What went wrong, announced to screen readers at once; nothing when all is well. */

export function ErrorAlert(props: { error: string | null }) {
  if (!props.error) return null;
  return (
    <p class="error" role="alert">
      {props.error}
    </p>
  );
}
