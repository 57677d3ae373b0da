/** @module What the caller's key may do, from `GET /whoami`: the page offers only the actions that will work. */
import type { TimelinePoint, ViewerOperation, WhoamiResponse } from '../../src/wire/viewer.js';

export const can = (who: WhoamiResponse, operation: ViewerOperation): boolean =>
  who.operations.includes(operation);

const maySource = (who: WhoamiResponse, source: string): boolean =>
  who.sources === '*' || who.sources.includes(source);

/** memory-pool's points through `/forget` within the key's sources; SillyTavern's (no source) as admin. */
export const canForgetPoint = (who: WhoamiResponse, point: TimelinePoint): boolean =>
  point.source === undefined ? can(who, 'admin') : can(who, 'forget') && maySource(who, point.source);

/** memory-pool's points are edited through `/save` (save scope, the point's source); SillyTavern's as admin. */
export const canEditPoint = (who: WhoamiResponse, point: TimelinePoint): boolean =>
  point.source === undefined ? can(who, 'admin') : can(who, 'save') && maySource(who, point.source);
