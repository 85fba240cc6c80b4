/** Labels and form validation for accounts, using the same schemas the backend enforces. */
import {
  accountNameSchema,
  apiKeySchema,
  baseUrlSchema,
  type AccountCheck,
  type KeyStorage,
} from '../../../../shared/accounts';
import { fieldError } from '../../ui/forms';
import { countOf } from '../../ui/words';

export const KEY_STORAGE_LABELS: Record<KeyStorage, string> = {
  keychain: 'In system keychain',
  memory: 'In memory for this session — keychain unavailable',
  missing: 'Key missing — enter it again',
  demo: 'Demo',
};

export function keyStorageLabel(storage: KeyStorage): string {
  return KEY_STORAGE_LABELS[storage];
}

/** "Key works: 10 instruments". */
export function checkResultText(check: Pick<AccountCheck, 'instrumentCount'>): string {
  return `Key works: ${countOf(check.instrumentCount, 'instrument')}`;
}

export interface AccountForm {
  name: string;
  baseUrl: string;
  apiKey: string;
}

export type AccountFormErrors = Partial<Record<keyof AccountForm, string>>;

export function validateAccountForm(form: AccountForm): AccountFormErrors {
  const errors: AccountFormErrors = {};
  const name = fieldError(accountNameSchema, form.name);
  const baseUrl = fieldError(baseUrlSchema, form.baseUrl);
  const apiKey = fieldError(apiKeySchema, form.apiKey);
  if (name) errors.name = name;
  if (baseUrl) errors.baseUrl = baseUrl;
  if (apiKey) errors.apiKey = apiKey;
  return errors;
}

export function apiKeyError(value: string): string | null {
  return fieldError(apiKeySchema, value);
}

export function accountNameError(value: string): string | null {
  return fieldError(accountNameSchema, value);
}

/** "api.mycirrus.cloud" from a base address, for short mentions such as the offline banner. */
export function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
}
