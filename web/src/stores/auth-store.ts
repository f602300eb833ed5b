import { useSyncExternalStore } from 'react';
import { createLocalStorageStore } from '@/lib/local-storage-store';

export const USER_INFO_STORAGE_KEY = 'userInfo';

/** The signed-in user as the api returns it (DESIGN.md section 4, user JSON). */
export type UserInfo = {
  _id: string;
  name: string;
  email: string;
  isAdmin: boolean;
  activeBalance?: number;
  passiveBalance?: number;
  referralCode?: string;
  referralCommand?: { _id: string; name: string }[];
  referralCount?: number;
};

function parseUserInfo(value: unknown): UserInfo | null {
  if (!value || typeof value !== 'object') return null;
  const user = value as Partial<UserInfo>;
  if (typeof user._id !== 'string' || typeof user.name !== 'string') return null;
  return { ...user, email: user.email ?? '', isAdmin: user.isAdmin === true } as UserInfo;
}

const store = createLocalStorageStore<UserInfo | null>(USER_INFO_STORAGE_KEY, parseUserInfo, null);

export const getUserInfo = store.get;

/** Stores the user returned by login, registration or a profile change. */
export function setUserInfo(user: UserInfo): void {
  store.set(user);
}

export function clearUserInfo(): void {
  store.remove();
}

export function useUserInfo(): UserInfo | null {
  return useSyncExternalStore(store.subscribe, store.get, store.initial);
}
