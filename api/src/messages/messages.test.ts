import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Locale } from '@shop/core/contract';
import { scanMessages } from './scan-sources.ts';
import { lookupFieldProblem, lookupMessage, translateFieldMessage, translateMessage } from './translate.ts';

/**
 * The api's messages in az and ru (issue 41): every English message the code can answer
 * people with has a translation in both, so a new error cannot ship in English alone.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const found = scanMessages(root, ['core/src', 'api/src']);
/** A pattern with its values filled in, as a request would meet it. */
const sample = (pattern: string) => pattern.replace(/\{\}/g, '7');

describe('the messages catalogue', () => {
  it('reads the messages from the code: the helpers, the constants, the rate limits, the handler and the contract', () => {
    const patterns = found.map((m) => m.pattern);
    expect(found.length).toBeGreaterThan(180);
    for (const known of ['Invalid email or password', 'Unknown referral code', 'Too many payment reports from your account', 'Internal server error', 'Order not found', 'Not enough stock for {}: {} left', 'is too long', 'must be at least {} characters']) {
      expect(patterns).toContain(known);
    }
  });

  it.each(['az', 'ru'] as const)('has a %s translation of every message', (locale: Locale) => {
    const missing = found
      .filter((m) => (m.kind === 'message' ? lookupMessage(locale, sample(m.pattern)) : lookupFieldProblem(locale, sample(m.pattern))) === null)
      .map((m) => `${m.where}: ${m.pattern}`);
    expect(missing).toEqual([]);
  });

  it('translates by exact text, by template (values kept, counts in the plural the language needs) and keeps English for what it lacks', () => {
    expect(translateMessage('ru', 'Invalid email or password')).toBe('Неверный адрес электронной почты или пароль');
    expect(translateMessage('az', 'Order not found')).toBe('Sifariş tapılmadı');
    expect(translateMessage('az', 'Not enough stock for Gold Package: 2 left')).toBe('Gold Package üçün kifayət qədər ehtiyat yoxdur: 2 qalıb');
    expect(translateMessage('ru', 'Too many attempts, please try again in 21 seconds')).toBe('Слишком много попыток, пожалуйста, попробуйте снова через 21 секунду');
    expect(translateMessage('ru', 'Too many payment reports for this order, please try again in 5 seconds')).toBe(
      'Слишком много сообщений о платежах по этому заказу, пожалуйста, попробуйте снова через 5 секунд',
    );
    expect(translateMessage('ru', 'Invalid email: is too long')).toBe('Неверное поле email: слишком длинное значение');
    expect(translateMessage('az', 'Something nobody wrote yet')).toBe('Something nobody wrote yet');
    expect(translateMessage('en', 'Order not found')).toBe('Order not found');
  });

  it("translates a field's message as its name and its problem", () => {
    expect(translateFieldMessage('ru', 'password', 'must be at least 8 characters', 'Password')).toBe('Пароль: нужно не менее 8 символов');
    expect(translateFieldMessage('az', 'email', 'must be a valid e-mail address', 'Email')).toBe('E-poçt: düzgün e-poçt ünvanı olmalıdır');
    // zod's own words, where a schema gives none.
    expect(translateFieldMessage('ru', 'email', 'Invalid input: expected string, received undefined', 'Email')).toBe('Электронная почта: неверные данные: ожидалось string, получено undefined');
    // A field the catalogue does not name keeps its English name.
    expect(translateFieldMessage('az', 'loadedActiveBalance', 'is required', 'Loaded active balance')).toBe('Loaded active balance: mütləqdir');
  });
});
