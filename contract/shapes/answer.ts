/**
 * What every answer of the API has in common. The answers' own shapes are the `…Answer` types of
 * contract/shapes/: scripts/generate_shape_schemas.ts turns them into contract/shapes.schema.json, the API
 * reference's success schemas.
 */

/** A success that only says so, in words a person can read (sign-out, a setting saved, a PIN reset…). */
export interface MessageAnswer {
  success: true;
  message: string;
}
