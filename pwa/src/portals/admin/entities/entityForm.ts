/**
 * The entity form's rules (spec sections 4, 5), kept free of React so they can be unit-tested; its texts are
 * the catalogues' (section `entities`), in the language shown.
 */
import { t } from 'i18next';
import { slugify } from '../../../../../contract/rules/slug.ts';
import { LOGIN_ENTITY } from '../../../auth/authApi.ts';
import type { Entity, EntityRequest } from './entitiesApi.ts';
import { DEFAULT_LANGUAGE, type Language } from '../../../../../contract/languages.ts';

export const ENTITY_STATUSES = ['active', 'inactive'] as const;

export interface EntityFormValues {
  name: string;
  slug: string;
  status: 'active' | 'inactive';
  email: string;
  phone: string;
  address: string;
  /** What a signed-out tablet shows, and a user with no saved language sees. */
  default_language: Language;
}

export const EMPTY_ENTITY_FORM: EntityFormValues = {
  name: '',
  slug: '',
  status: 'active',
  email: '',
  phone: '',
  address: '',
  default_language: DEFAULT_LANGUAGE,
};

/** The form's starting values for an existing entity (a pending one is offered as active or inactive only). */
export function formValuesOf(entity: Entity): EntityFormValues {
  return {
    name: entity.name,
    slug: entity.slug,
    status: entity.status === 'inactive' ? 'inactive' : 'active',
    email: entity.email ?? '',
    phone: entity.phone ?? '',
    address: entity.address ?? '',
    default_language: entity.default_language ?? DEFAULT_LANGUAGE,
  };
}

/**
 * Every sign-in names this entity (the login form's LOGIN_ENTITY), so the server refuses to change its slug; the
 * form keeps it fixed rather than let it follow.
 */
export const SIGN_IN_ENTITY_SLUG = LOGIN_ENTITY;

/**
 * Spec section 4: the slug follows the name while it is empty or still equals the slug generated from the
 * previous name (on edit, also while it equals the original slug); once typed by hand it stays.
 */
export function followSlug(
  options: { previousName: string; nextName: string; slug: string; originalSlug?: string },
): string {
  const { previousName, nextName, slug, originalSlug } = options;
  if (originalSlug === SIGN_IN_ENTITY_SLUG) return slug;
  const following = slug === '' || slug === slugify(previousName) ||
    (originalSlug !== undefined && slug === originalSlug);
  return following ? slugify(nextName) : slug;
}

/** The first problem of the form, or null (spec section 5). */
export function entityFormProblem(values: Pick<EntityFormValues, 'name'>): string | null {
  return values.name.trim() === '' ? t('entities.nameRequired') : null;
}

/** Spec section 5: name and slug trimmed; a blank slug is generated from the name; blank optional fields left out. */
export function entityPayload(values: EntityFormValues): EntityRequest {
  const name = values.name.trim();
  const slug = values.slug.trim() || slugify(name);
  const payload: EntityRequest = {
    name,
    slug,
    status: values.status,
    default_language: values.default_language,
  };
  for (const key of ['email', 'phone', 'address'] as const) {
    const value = values[key].trim();
    if (value) payload[key] = value;
  }
  return payload;
}

/** The details modal's settings: formatted JSON, or the spec's text when there are none. */
export function settingsText(settings: Record<string, unknown> | null | undefined): string {
  return settings && typeof settings === 'object' && Object.keys(settings).length > 0
    ? JSON.stringify(settings, null, 2)
    : t('entities.noSettings');
}
