import { toast } from '@/lib/toast';

/** Copies text to the clipboard, with a toast either way. */
export async function copyToClipboard(text: string, okMessage: string, failMessage: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    toast.success(okMessage);
  } catch {
    toast.error(failMessage);
  }
}
