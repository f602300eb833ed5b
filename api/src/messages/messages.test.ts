import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Locale } from '@shop/core/contract';
import { scanMessages } from './scan-sources.ts';
import { lookupFieldProblem, lookupMessage, translateFieldMessage, translateMessage } from './translate.ts';

/**
 * The api's messages in az and ru (issue 41): every English message the code can answer
 * people with, and every finding the reconciler reports to the admin, has a translation in
 * both, so a new error or finding cannot ship in English alone.
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

  it("reads the reconciler's findings: what its checks add, the findings they return, the audit log's breaks and the checked line's words", () => {
    const findings = found.filter((m) => m.kind === 'finding');
    expect(findings.length).toBeGreaterThan(50);
    const patterns = findings.map((m) => m.pattern);
    for (const known of [
      'The {} balance is {} but its ledger sums to {}',
      'A counted transfer has no order, block or value',
      // A check's returned finding, its sentence begun in a constant (`${held} but ...`).
      'The deposit address holds {} ETH after block {} but its unswept deposits add up to {} ETH: {} ETH recorded is not there',
      'The deposit address holds {} after block {}, {} more than its unswept {} deposits ({}): {} arrived that the shop did not record',
      'Audit entries {} to {} are missing',
      'not checked: chain checks left out',
    ]) {
      expect(patterns).toContain(known);
    }
    // The audit head ('{}:{}') is a value, not words.
    expect(patterns.filter((p) => !/[a-z]/i.test(p.replace(/\{\}/g, '')))).toEqual([]);
  });

  it.each(['az', 'ru'] as const)('has a %s translation of every message and finding', (locale: Locale) => {
    const missing = found
      .filter((m) => (m.kind === 'field' ? lookupFieldProblem(locale, sample(m.pattern)) : lookupMessage(locale, sample(m.pattern))) === null)
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

  it("translates the reconciler's findings, counts in the plural Russian needs, a block's place on the chain in words", () => {
    expect(translateMessage('ru', 'The active balance is $10.00 but its ledger sums to $12.50')).toBe('Активный баланс — $10.00, но его проводки в журнале дают в сумме $12.50');
    expect(translateMessage('az', 'The order holds none of the package but its movements took 2')).toBe('Sifariş paketdən heç nə saxlamır, lakin ehtiyat hərəkətləri onun üçün 2 ədəd götürüb');
    expect(translateMessage('ru', 'Tag 42 is held by 2 orders')).toBe('Метку 42 держат 2 заказа');
    expect(translateMessage('ru', 'A transfer with 21 confirmations has been waiting since 2026-11-22T10:00:00.000Z without being settled')).toBe(
      'Перевод с 21 подтверждением ждёт с 2026-11-22T10:00:00.000Z и так и не учтён',
    );
    expect(translateMessage('ru', "A counted transfer's block 12 is now 0xaa, not 0xbb")).toBe('Блок 12 учтённого перевода теперь с хешем 0xaa, а не 0xbb');
    expect(translateMessage('az', "A counted transfer's block 12 is not on the chain, not 0xbb")).toBe('Nəzərə alınmış köçürmənin 12 nömrəli bloku blokçeyndə yoxdur (qeydə alınmış heş: 0xbb)');
    // The ETH and the token findings of a deposit address, each by its own template.
    expect(translateMessage('ru', 'The deposit address holds 1 USDC after block 9 but its unswept USDC deposits add up to 3 USDC: 2 USDC recorded is not there')).toBe(
      'На депозитном адресе после блока 9 — 1 USDC, но его несобранные депозиты в USDC дают в сумме 3 USDC: 2 USDC из записанного там нет',
    );
    expect(translateMessage('en', 'Tag 42 is held by 2 orders')).toBe('Tag 42 is held by 2 orders');
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
