/** The admin sidebar (spec section 2): label and sub-path of each section, in menu order. */
export const ADMIN_SECTIONS = [
  { key: 'users', label: 'Users' },
  { key: 'entities', label: 'Entities' },
  { key: 'audit-logs', label: 'Audit Logs' },
  { key: 'settings', label: 'Settings' },
  { key: 'ip-whitelist', label: 'IP Whitelist' },
] as const;

export type AdminSectionKey = (typeof ADMIN_SECTIONS)[number]['key'];

/** The section a path under /portal/admin belongs to, or null for the dashboard. */
export function sectionForPath(pathname: string): AdminSectionKey | null {
  const rest = pathname.replace(/^\/portal\/admin\/?/, '');
  const first = rest.split('/')[0];
  return ADMIN_SECTIONS.find((section) => section.key === first)?.key ?? null;
}
