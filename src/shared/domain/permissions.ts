/** Permissions a user may hold; the login response lists them in `restrictions` (docs/product.md#roles). */
export const PERMISSIONS = ['write', 'read_rebate'] as const;
export type Permission = (typeof PERMISSIONS)[number];

export function hasPermission(restrictions: readonly string[] | undefined, permission: Permission): boolean {
  return restrictions?.includes(permission) ?? false;
}
