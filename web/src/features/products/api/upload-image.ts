import { useMutation } from '@tanstack/react-query';
import type { UploadResult } from '@shop/core/contract';
import { api } from '@/lib/api-client';

/** Admin: uploads a package image (multipart field `image`); the reply names its path. */
export const uploadImage = (file: File): Promise<UploadResult> => {
  const form = new FormData();
  form.append('image', file);
  return api.post<UploadResult>('/api/uploads', form);
};

export function useUploadImage() {
  return useMutation({ mutationFn: uploadImage });
}
