/** What the user reads when something fails: always the backend's plain message, never a code. */
import { FieldDeskError, isFieldDeskError } from '../../shared/errors';

const FALLBACK = 'Something went wrong inside FieldDesk. Try again; if it keeps happening, restart the app.';

export function errorMessage(error: unknown): string {
  return isFieldDeskError(error) && error.message.trim() !== '' ? error.message : FALLBACK;
}

export function asFieldDeskError(error: unknown): FieldDeskError {
  return isFieldDeskError(error) ? error : new FieldDeskError('internal', FALLBACK, { cause: error });
}
