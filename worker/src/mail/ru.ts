import type { Factor, MailText } from './en.ts';

/** Every e-mail's text in Russian, key for key as en.ts. */
const factorName = (f: Factor) => (f.kind === 'passkey' ? `ключ доступа (${f.name ?? 'без названия'})` : 'приложение-аутентификатор');
const capital = (text: string) => `${text[0]!.toUpperCase()}${text.slice(1)}`;
/** The verb agrees with the factor: 'ключ' is masculine, 'приложение' neuter. */
const past = (f: Factor, masculine: string, neuter: string) => (f.kind === 'passkey' ? masculine : neuter);

export const ru: MailText = {
  hello: (name) => `Здравствуйте, ${name}!`,
  transaction: (hash) => `Транзакция: ${hash}`,
  yourProfile: (url) => `Ваш профиль: ${url}`,
  notYou: (site) => `Если это были не вы, вашим аккаунтом может пользоваться кто-то другой: сразу задайте новый пароль на ${site}/forgot-password, затем проверьте ${site}/profile/security.`,

  receipt: {
    subject: (ref) => `Оплата заказа ${ref} получена`,
    confirmed: (ref, network) => `Ваша оплата заказа ${ref} подтверждена в сети ${network}.`,
    line: (p) => `- ${p.name}: ${p.qty} × ${p.price} = ${p.sum}`,
    total: (amount) => `Итого: ${amount}`,
    paid: (eth) => `Оплачено: ${eth} ETH`,
    runsUntil: (day) => `Ваши пакеты действуют до ${day}.`,
    receiptLink: (url) => `Ваш чек: ${url}`,
  },
  cashoutPaid: {
    subject: (amount) => `Ваш вывод средств на сумму ${amount} выплачен`,
    sent: (p) => `Ваш вывод средств на сумму ${p.amount} отправлен на кошелёк ${p.wallet} в сети ${p.network}.`,
  },
  refundPaid: {
    subject: (eth) => `Возврат ${eth} ETH отправлен`,
    sent: (p) => {
      const what = p.what === 'overpayment' ? `переплату по заказу ${p.ref}` : p.what === 'order-transfer' ? `ваш перевод за заказ ${p.ref}` : 'ваш перевод';
      return `Мы вернули ${what}: ${p.eth} ETH отправлено на кошелёк ${p.wallet} в сети ${p.network}.`;
    },
  },
  passwordReset: {
    subject: 'Задайте новый пароль',
    asked: 'Кто-то (надеемся, что вы) попросил задать новый пароль для вашего аккаунта. Откройте эту ссылку, чтобы выбрать его:',
    linkWorks: (until) => `Ссылка действует один раз, до ${until}.`,
    ignore: 'Если вы этого не просили, не обращайте внимания на это письмо: ваш пароль останется прежним.',
  },
  passwordResetUsed: {
    subject: 'Ваш пароль изменён',
    changed: (at) => `Пароль вашего аккаунта изменён по ссылке для сброса ${at}, и все сеансы аккаунта завершены.`,
    notYou: (site) => `Если это были не вы, запросите новую ссылку на ${site}/forgot-password и сразу сообщите нам.`,
  },
  factorAdded: {
    subject: (f) => `Двухфакторный вход: к вашему аккаунту ${past(f, 'добавлен', 'добавлено')} ${factorName(f)}`,
    line: (f, at) => `${capital(factorName(f))} ${past(f, 'добавлен', 'добавлено')} к двухфакторному входу вашего аккаунта ${at}.`,
  },
  factorRemoved: {
    subject: (f) => `Двухфакторный вход: из вашего аккаунта ${past(f, 'удалён', 'удалено')} ${factorName(f)}`,
    line: (f, at) => `${capital(factorName(f))} ${past(f, 'удалён', 'удалено')} из двухфакторного входа вашего аккаунта ${at}.`,
  },
  passwordChanged: {
    subject: 'Пароль вашего аккаунта изменён',
    line: (at) => `Пароль вашего аккаунта изменён ${at}, остальные сеансы аккаунта завершены.`,
  },
  emailChanged: {
    subject: 'Адрес электронной почты вашего аккаунта изменён',
    line: (to, at) => `Адрес электронной почты вашего аккаунта изменён на ${to ?? 'другой адрес'} ${at}: теперь мы будем писать туда.`,
  },
  welcome: {
    subject: 'Добро пожаловать в ETH Shop',
    ready: (site) =>
      `Ваш аккаунт готов. Выберите пакет на ${site}/ и оплатите его в ETH со своего кошелька; затем его ежедневные начисления будут поступать на ваш баланс, а профиль покажет их: ${site}/profile`,
    referral: (code, percent) => `Ваш реферальный код: ${code}. Каждый, кто зарегистрируется с ним, принесёт вам ${percent}% от каждого оплаченного им заказа — они поступят на ваш активный баланс.`,
    notYours: 'Если вы не открывали этот аккаунт, сообщите нам, ответив на это письмо.',
  },
  referralReward: {
    subject: (amount) => `Вы получили реферальное вознаграждение: ${amount}`,
    credited: (p) => `Человек, зарегистрировавшийся с вашим реферальным кодом, оплатил заказ, и ${p.amount} (${p.percent}% от него) зачислено на ваш активный баланс ${p.at}.`,
    statement: (url) => `Ваш баланс и выписка по нему: ${url}`,
  },
  cashoutRequested: {
    subject: (amount) => `Запрошен вывод средств на сумму ${amount}`,
    asked: (p) => `${capital(p.at)} запрошен вывод средств на сумму ${p.amount} с вашего аккаунта на кошелёк ${p.wallet} в сети ${p.network}.`,
    within: 'Монеты поступят на кошелёк в течение 1–24 часов.',
  },
  cashoutNewWallet: {
    subject: (amount) => `Вывод средств на сумму ${amount} на новый кошелёк`,
    waitsUntil: (until) => `На этот кошелёк с вашего аккаунта ещё не было выплат, поэтому вывод средств ждёт до ${until}, прежде чем будет выплачен.`,
    newWallet: 'На этот кошелёк с вашего аккаунта ещё не было выплат.',
    cancel:
      'Если это были не вы, откройте эту ссылку: она отменит все ещё ожидающие выводы средств с вашего аккаунта на этот кошелёк (сумма вернётся на ваш активный баланс), заблокирует кошелёк для вашего аккаунта и завершит все сеансы аккаунта на всех устройствах. Затем задайте новый пароль.',
    linkWorks: (until) => `Ссылка действует один раз, до ${until}.`,
  },
};
