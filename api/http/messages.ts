/**
 * The success messages routes answer with (the spec's exact texts), beside the failure catalogue
 * (failures.ts): every text the API says to a person is in one of the two.
 */
export const SUCCESS = {
  settingUpdated: 'Setting updated successfully',
} as const;
