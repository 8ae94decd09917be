import { z } from 'zod';

function requiredString(field: string, max: number) {
  return z
    .string({ error: (issue) => (issue.input === undefined ? `${field} is required` : `${field} must be a string`) })
    .min(1, `${field} is required`)
    .max(max, `${field} is too long (at most ${max} characters)`);
}

/** POST /api/login body. Unknown fields are refused, not stripped. */
export const LoginBody = z.strictObject({
  username: requiredString('username', 200).regex(/^[^\p{Cc}]*$/u, 'username must not contain control characters'),
  password: requiredString('password', 1000),
});
export type LoginBody = z.infer<typeof LoginBody>;

/** The session the client keeps in local storage under `user_data` (docs/product.md#fields). */
export const SessionData = z.object({
  api_key: z.string().min(1),
  portfolio_auth: z.array(z.string()),
  status: z.string(),
  restrictions: z.array(z.string()),
});
export type SessionData = z.infer<typeof SessionData>;

export const LoginResponse = z.object({ data: SessionData });
export type LoginResponse = z.infer<typeof LoginResponse>;

/** POST /api/ws-ticket: a single-use websocket ticket, valid 30 s (docs/architecture.md). */
export const WsTicketResponse = z.object({ data: z.object({ ticket: z.string() }) });
export type WsTicketResponse = z.infer<typeof WsTicketResponse>;

/**
 * POST /api/account/password: the caller's new password. Every session of the user ends (other
 * devices and their sockets included); the answer carries a fresh key for this device.
 */
export const ChangePasswordBody = z
  .strictObject({
    current_password: requiredString('current_password', 1000),
    new_password: requiredString('new_password', 1000).min(10, 'new_password must have at least 10 characters'),
  })
  .refine((b) => b.new_password !== b.current_password, { path: ['new_password'], message: 'new_password must differ from the current password' });
export type ChangePasswordBody = z.infer<typeof ChangePasswordBody>;
export const ChangePasswordResponse = z.object({ message: z.string(), data: z.object({ api_key: z.string() }) });
