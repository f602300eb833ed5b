/** Every error response of the API: `{ message }`, validation errors may add `errors`. */
export type ApiErrorBody = {
  message: string;
  errors?: { path: string; message: string }[];
};
