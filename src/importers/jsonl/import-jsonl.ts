/**
 * @module `memory-pool import jsonl`: the generic line format, so any other history can be converted with a
 * few lines of script. One JSON object a line, the `/save` message shape plus a required `ts`:
 * `{"speaker_kind":"user","text":"…","message_id":"m1","ts":1714000000000,"speaker_name":"Helen","channel_id":"c1"}`.
 */
import { z } from 'zod';
import { formatPath } from '../../config/config-problems.js';
import { saveMessageSchema } from '../../wire/save-request.js';
import { type ImportedHistory, type ImportedMessage, refuseInput } from '../imported-history.js';
import { listImportFiles } from '../list-import-files.js';
import { readTextFile } from '../read-text-file.js';

/** A line: a /save message whose `ts` (Unix ms, or seconds) is required, since imported history is old. */
export const importLineSchema = saveMessageSchema.extend({
  ts: z.number({ message: 'is required: the Unix time in ms the message was sent' }).nonnegative(),
});

const LINE_FIX =
  'Each line is one JSON object: {"speaker_kind":"user"|"self","text","message_id","ts",…} (docs/importing-and-moving-data.md)';

/** Reads every `.jsonl` file under `paths`. */
export function importJsonl(paths: readonly string[], options: { readonly source: string }): ImportedHistory {
  const messages: ImportedMessage[] = [];
  for (const file of listImportFiles(paths, '.jsonl')) {
    readTextFile(file)
      .split('\n')
      .forEach((raw, i) => {
        if (raw.trim() === '') return;
        const origin = `${file}:${i + 1}`;
        let value: unknown;
        try {
          value = JSON.parse(raw);
        } catch (error) {
          throw refuseInput(origin, `not JSON (${(error as Error).message})`, LINE_FIX);
        }
        const parsed = importLineSchema.safeParse(value);
        if (!parsed.success) {
          const issue = parsed.error.issues[0]!;
          const field = formatPath(issue.path, 'line');
          throw refuseInput(origin, `${field} ${issue.message}`, LINE_FIX);
        }
        messages.push({ origin, message: parsed.data });
      });
  }
  return { source: options.source, messages, skipped: {}, notes: [] };
}
