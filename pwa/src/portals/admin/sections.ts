/**
 * The admin sidebar (spec section 2): label (its catalogue key) and sub-path of each section, in menu order. Settings (with the
 * e-mail outbox) are the installation's: only the department's administrators see them.
 */
export const ADMIN_SECTIONS = [
  { key: 'users', label: 'adminSections.users', departmentOnly: false },
  { key: 'entities', label: 'adminSections.entities', departmentOnly: false },
  { key: 'audit-logs', label: 'adminSections.auditLogs', departmentOnly: false },
  { key: 'settings', label: 'adminSections.settings', departmentOnly: true },
  { key: 'ip-whitelist', label: 'adminSections.ipWhitelist', departmentOnly: false },
] as const;

export type AdminSectionKey = (typeof ADMIN_SECTIONS)[number]['key'];

/** The sections an admin sees: every one for a department administrator, their own entity's otherwise. */
export function sectionsFor(departmentAdmin: boolean) {
  return ADMIN_SECTIONS.filter((section) => departmentAdmin || !section.departmentOnly);
}

/** The section a path under /portal/admin belongs to, or null for the dashboard. */
export function sectionForPath(pathname: string): AdminSectionKey | null {
  const rest = pathname.replace(/^\/portal\/admin\/?/, '');
  const first = rest.split('/')[0];
  return ADMIN_SECTIONS.find((section) => section.key === first)?.key ?? null;
}
