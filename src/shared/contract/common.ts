import { z } from 'zod';

/** Every 4xx/5xx answer of the API. */
export const ErrorResponse = z.object({ message: z.string() });
export type ErrorResponse = z.infer<typeof ErrorResponse>;

/** Answer of write calls that only report what they did. */
export const MessageResponse = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof MessageResponse>;

/** Header that carries the session token on every call but login (docs/product.md#calls). */
export const API_KEY_HEADER = 'x-api-key';
