import type { MessageCatalogue } from './en.ts';

const rules = new Intl.PluralRules('ru');
/** A count with its noun in the form Russian gives it: 1 секунду, 2 секунды, 5 секунд (a count that is not a number keeps `many`). */
export function count(value: string | undefined, one: string, few: string, many: string): string {
  const n = Number(value);
  const form = Number.isFinite(n) ? rules.select(n) : 'many';
  return `${value ?? ''} ${form === 'one' ? one : form === 'few' ? few : many}`;
}

/** The Russian words of a request's fields: their names and their problems (the contract's, and zod's own), key for key as en.ts. */
export const fields: Pick<MessageCatalogue, 'fieldExact' | 'fieldTemplates' | 'fields' | 'field'> = {
  fieldExact: {
    'is required': 'обязательное поле',
    'is too long': 'слишком длинное значение',
    'is too large': 'слишком большое значение',
    'is too long (100 characters at most)': 'слишком длинное значение (не более 100 символов)',
    'is too long (200 characters at most)': 'слишком длинное значение (не более 200 символов)',
    'is too long (5000 characters at most)': 'слишком длинное значение (не более 5000 символов)',
    'must be a valid e-mail address': 'нужен действительный адрес электронной почты',
    'must be a whole number': 'нужно целое число',
    'must be a non-negative amount with at most 2 decimals': 'нужна неотрицательная сумма не более чем с 2 знаками после запятой',
    'must be an amount with at most 2 decimals': 'нужна сумма не более чем с 2 знаками после запятой',
    'must be an Ethereum address (0x followed by 40 hex characters)': 'нужен адрес Ethereum (0x и 40 шестнадцатеричных символов)',
    'must be a transaction hash (0x followed by 64 hex characters)': 'нужен хеш транзакции (0x и 64 шестнадцатеричных символа)',
    'must be an address (0x and 40 hex digits)': 'нужен адрес (0x и 40 шестнадцатеричных цифр)',
    'must be a whole number written in decimal digits': 'нужно целое число, записанное десятичными цифрами',
    'must be 32 bytes (0x and 64 hex digits)': 'нужно 32 байта (0x и 64 шестнадцатеричные цифры)',
    'must be a signature (0x followed by hex)': 'нужна подпись (0x и шестнадцатеричные цифры)',
    'must be a decimal string of wei': 'нужна десятичная строка в wei',
    "must be a decimal string of the asset's smallest units": 'нужна десятичная строка в наименьших единицах актива',
    'has too many lines (50 at most)': 'слишком много строк (не более 50)',
    "must be the order's reference (ORD-…) or its id": 'нужен номер заказа (ORD-…) или его id',
    'must be an uploaded image path or an http(s) URL': 'нужен путь к загруженному изображению или URL http(s)',
    'must be true or false': 'нужно true или false',
    'must be base64url': 'нужна строка base64url',
    'is not a reset token': 'это не токен сброса',
    'is not a link token': 'это не токен ссылки',
    'lists too many event types': 'слишком много типов событий',
    'must be text': 'нужен текст',
    'is required: say why the second admin should approve it': 'обязательное поле: объясните, почему второй администратор должен это одобрить',
    'Invalid input': 'неверные данные',
  },
  fieldTemplates: {
    'must be at least {n} characters': (v) => `нужно не менее ${count(v.n, 'символа', 'символов', 'символов')}`,
    'must be at most {n} characters': (v) => `нужно не более ${count(v.n, 'символа', 'символов', 'символов')}`,
    'must be at least {n}': 'нужно не менее {n}',
    'must be at most {n}': 'нужно не более {n}',
    'Invalid input: expected {expected}, received {received}': 'неверные данные: ожидалось {expected}, получено {received}',
    'Invalid option: expected one of {options}': 'неверный вариант: ожидался один из {options}',
    'Unrecognized key: {key}': 'неизвестный ключ: {key}',
    'Unrecognized keys: {keys}': 'неизвестные ключи: {keys}',
  },
  fields: {
    name: 'Имя',
    email: 'Электронная почта',
    password: 'Пароль',
    currentPassword: 'Текущий пароль',
    referredBy: 'Реферальный код',
    referralCode: 'Реферальный код',
    code: 'Код',
    token: 'Токен',
    wallet: 'Кошелёк',
    txHash: 'Хеш транзакции',
    amount: 'Сумма',
    orderedItems: 'Позиции заказа',
    qty: 'Количество',
    locale: 'Язык',
    signature: 'Подпись',
    price: 'Цена',
    description: 'Описание',
    image: 'Изображение',
    reason: 'Причина',
    url: 'URL',
  },
  field: (label, problem) => `${label}: ${problem}`,
};
