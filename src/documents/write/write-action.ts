import { ApiError } from '../../common/api-error.js';
import { ErrorCode } from '../../common/error-codes.js';

/** What a client asks for one object of a POST or PUT body (`@metadata.action`, LAC's names). */
export type WriteAction = 'INSERT' | 'UPDATE' | 'DELETE' | 'LOOKUP' | 'MERGE_INSERT';

const ACTIONS: ReadonlySet<string> = new Set<WriteAction>(['INSERT', 'UPDATE', 'DELETE', 'LOOKUP', 'MERGE_INSERT']);

/** The action an object asks for: its `@metadata.action` (case-insensitive), else the verb's (POST: INSERT, PUT: UPDATE). */
export function writeActionOf(sent: string | undefined, byDefault: WriteAction): WriteAction {
  if (sent === undefined) return byDefault;
  const action = sent.toUpperCase();
  if (!ACTIONS.has(action)) {
    throw new ApiError(
      ErrorCode.BAD_REQUEST,
      `Unknown @metadata.action "${sent.slice(0, 64)}": use INSERT, UPDATE, DELETE, LOOKUP or MERGE_INSERT.`,
    );
  }
  return action as WriteAction;
}
