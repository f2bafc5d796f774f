/** GET and PUT /api/preferences: a sender's own choices, kept on the server. */
export interface Preferences {
  /** E-mail me when a document I sent is first opened (at most one e-mail per document). Off by default. */
  notifyOnOpen: boolean;
}

/** GET /api/preferences answer. */
export interface PreferencesAnswer {
  success: true;
  preferences: Preferences;
}

/** PUT /api/preferences answer: the preferences as saved. */
export interface PreferencesSavedAnswer {
  success: true;
  message: string;
  preferences: Preferences;
}
