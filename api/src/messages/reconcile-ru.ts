import { blockState, type ReconcileCatalogue } from './reconcile-en.ts';
import { count } from './ru-fields.ts';

type Values = Record<string, string>;

const BALANCES: Values = { active: 'Активный баланс', passive: 'Пассивный баланс' };

/** '<whose> block 5 is now 0x…' or '… is not on the chain', in Russian: 'Блок 5 учтённого перевода теперь с хешем 0x…'. */
function block(v: Values, whose: string): string {
  const state = blockState(v.state);
  return 'now' in state ? `Блок ${v.block} ${whose} теперь с хешем ${state.now}` : `Блока ${v.block} ${whose} нет в блокчейне`;
}

/** The reconciler's findings in Russian, key for key as reconcile-en.ts. */
export const reconcileRu: ReconcileCatalogue = {
  exact: {
    'The order is PAID but a line has no daily credit term: daily credit does not read it':
      'Заказ оплачен (PAID), но у одной из его позиций нет срока ежедневных начислений: ежедневные начисления её не учитывают',
    'The cashout is PAID without a payout transaction the worker accepted': 'Вывод средств отмечен оплаченным (PAID) без транзакции выплаты, принятой обработчиком',
    'The refund is PAID without a payout transaction the worker accepted': 'Возврат отмечен выплаченным (PAID) без транзакции выплаты, принятой обработчиком',
    'A counted transfer has no order, block or value': 'У учтённого перевода нет заказа, блока или стоимости',
    'The sweep is CONFIRMED without the amount it swept': 'Сбор подтверждён (CONFIRMED), но собранная им сумма не записана',
    'The deposit is marked swept by a sweep that did not sweep its address': 'Депозит отмечен собранным сбором, который не собирал с его адреса',
    'A transfer to the receiving address is marked swept': 'Перевод на адрес получения отмечен собранным',
    'not checked: chain checks left out': 'не проверено: проверки блокчейна отключены',
  },
  templates: {
    'The {account} balance is {balance} but its ledger sums to {ledger}': (v) => `${BALANCES[v.account ?? ''] ?? `Баланс ${v.account}`} — ${v.balance}, но его проводки в журнале дают в сумме ${v.ledger}`,
    'The order records {paid} paid but its counted transfers add up to {counted}': 'По заказу записана оплата {paid}, но его учтённые переводы дают в сумме {counted}',
    'The order is PAID but its counted transfers ({counted}) do not cover its total ({total})': 'Заказ оплачен (PAID), но его учтённые переводы ({counted}) не покрывают его сумму ({total})',
    "The order's counted transfers ({counted}) cover its total but it is {status}": 'Учтённые переводы заказа ({counted}) покрывают его сумму, но его статус — {status}',
    "The order's referral reward was posted {rewards} time(s) and reversed {reversals} time(s) while it is {status}": (v) =>
      `Реферальное вознаграждение за заказ начислено ${count(v.rewards, 'раз', 'раза', 'раз')} и отменено ${count(v.reversals, 'раз', 'раза', 'раз')} при статусе заказа ${v.status}`,
    'The order records {settled} wei of overpayment settled but its refunds and credits add up to {parts} wei':
      'По заказу записано {settled} wei урегулированной переплаты, но его возвраты и зачисления на баланс дают в сумме {parts} wei',
    'The order records {settled} of overpayment settled but its refunds and credits add up to {parts}':
      'По заказу записано {settled} урегулированной переплаты, но его возвраты и зачисления на баланс дают в сумме {parts}',
    "The order's overpayment credits add up to {credited}, more than the {settled} of overpayment they settled":
      'Зачисления переплаты по заказу на баланс дают в сумме {credited} — больше, чем урегулированные ими {settled} переплаты',
    'The order settled {settled} of overpayment but was overpaid {overpaid} (a payment left the chain after it was refunded or credited)':
      'По заказу урегулировано {settled} переплаты, но переплачено было {overpaid} (платёж исчез из блокчейна после возврата или зачисления на баланс)',
    'The order holds none of the package but its movements took {took}': 'Заказ не держит этот пакет, но движения запаса списали на него {took}',
    'The order holds {qty} of the package but its movements took {took}': 'Заказ держит {qty} шт. пакета, но движения запаса списали на него {took}',
    'The cashout of {amount} ({status}) has ledger entries summing to {ledger}': 'У вывода средств на {amount} ({status}) проводки в журнале дают в сумме {ledger}',
    "A refund of {amount} ({asset}'s smallest units) does not match its transfer ({status}, {paid})": (v) =>
      `Возврат на ${v.amount} (в наименьших единицах ${v.asset}) не совпадает со своим переводом (${v.status === 'missing' ? 'перевода нет' : v.status}, ${v.paid})`,
    'The package has {stock} in stock but its movements add up to {logged}': 'У пакета в наличии {stock}, но его движения запаса дают в сумме {logged}',
    "A counted transfer's block {block} is {state}, not {hash}": (v) =>
      `${block(v, 'учтённого перевода')}${'now' in blockState(v.state) ? `, а не ${v.hash}` : ` (записан хеш ${v.hash})`}`,
    "A verified payout's block {block} is {state}: the cashout is PAID with nothing sent": (v) =>
      `${block(v, 'проверенной выплаты')}: вывод средств отмечен оплаченным (PAID), хотя ничего не отправлено`,
    "A verified payout's block {block} is {state}: the refund is PAID with nothing sent": (v) => `${block(v, 'проверенной выплаты')}: возврат отмечен выплаченным (PAID), хотя ничего не отправлено`,
    "A refunded transfer's block {block} is {state}: its refund gives back ETH that did not arrive": (v) => `${block(v, 'возвращённого перевода')}: его возврат отдаёт ETH, который не поступил`,
    'A transfer with {confirmations} confirmations has been waiting since {since} without being settled': (v) =>
      `Перевод с ${count(v.confirmations, 'подтверждением', 'подтверждениями', 'подтверждениями')} ждёт с ${v.since} и так и не учтён`,
    "Block {block}'s unexplained inflow may be the transfer later found through a contract in it: settle one of them, not both":
      'Необъяснённое поступление в блоке {block} может быть тем переводом через контракт, который позже нашёлся в этом блоке: разберите одно из них, а не оба',
    'One transaction was accepted for {count} payouts': (v) => `Одна транзакция принята для ${count(v.count, 'выплаты', 'выплат', 'выплат')}`,
    'Tag {tag} is held by {count} orders': (v) => `Метку ${v.tag} держат ${count(v.count, 'заказ', 'заказа', 'заказов')}`,
    'Audit entry {seq}, the last one the previous report saw, is gone': 'Запись аудита {seq}, последняя из тех, что видел предыдущий отчёт, исчезла',
    'Audit entry {seq}, the last one the previous report saw, was changed': 'Запись аудита {seq}, последняя из тех, что видел предыдущий отчёт, изменена',
    'Audit entry {seq} is missing': 'Записи аудита {seq} нет',
    'Audit entries {first} to {last} are missing': 'Записей аудита с {first} по {last} нет',
    'Audit entry {seq} does not follow the entry before it (its prevHash differs)': 'Запись аудита {seq} не продолжает предыдущую (её prevHash отличается)',
    'Audit entry {seq} was changed after it was written (its hash differs)': 'Запись аудита {seq} изменена после того, как была сделана (её хеш отличается)',
    'The deposit address holds {balance} ETH after block {block} but its unswept deposits add up to {recorded} ETH: {missing} ETH recorded is not there':
      'На депозитном адресе после блока {block} — {balance} ETH, но его несобранные депозиты дают в сумме {recorded} ETH: {missing} ETH из записанного там нет',
    'The deposit address holds {balance} ETH after block {block}, {extra} ETH more than its unswept deposits ({recorded} ETH): ETH arrived that the shop did not record':
      'На депозитном адресе после блока {block} — {balance} ETH, на {extra} ETH больше его несобранных депозитов ({recorded} ETH): поступил ETH, который магазин не записал',
    "The deposit address holds {balance} ETH after block {block} and the shop recorded nothing unswept there: ETH arrived that the indexer did not see (through a contract, after the address's watch ended)":
      'На депозитном адресе после блока {block} — {balance} ETH, а магазин не записал там ничего несобранного: поступил ETH, которого индексатор не видел (через контракт, после того как наблюдение за адресом закончилось)',
    'The deposit address holds {balance} after block {block} but its unswept {asset} deposits add up to {recorded}: {missing} recorded is not there':
      'На депозитном адресе после блока {block} — {balance}, но его несобранные депозиты в {asset} дают в сумме {recorded}: {missing} из записанного там нет',
    'The deposit address holds {balance} after block {block}, {extra} more than its unswept {asset} deposits ({recorded}): {asset2} arrived that the shop did not record':
      'На депозитном адресе после блока {block} — {balance}, на {extra} больше его несобранных депозитов в {asset} ({recorded}): поступили {asset2}, которые магазин не записал',
    'The token sweep is CONFIRMED without the {asset} its address moved': 'Сбор токенов подтверждён (CONFIRMED), но не записано, сколько {asset} перевёл его адрес',
    'The sweep moved {moved} from the deposit address but the {asset} deposits it marked there add up to {marked}':
      'Сбор перевёл с депозитного адреса {moved}, но отмеченные им там депозиты в {asset} дают в сумме {marked}',
    'The {asset} deposit is marked swept by a sweep that did not move {asset2} from its address': 'Депозит в {asset} отмечен собранным сбором, который не переводил {asset2} с его адреса',
    'The deposit is marked swept by a sweep that is {status}, not CONFIRMED': 'Депозит отмечен собранным сбором в статусе {status}, а не CONFIRMED',
    'The sweep is CONFIRMED but {count} of its addresses have no amount flushed recorded': (v) =>
      `Сбор подтверждён (CONFIRMED), но у ${count(v.count, 'его адреса', 'его адресов', 'его адресов')} не записана пересланная сумма`,
    'The sweep records {recorded} ETH swept but its addresses flushed {flushed} ETH': 'В сборе записано {recorded} ETH собранного, но его адреса переслали {flushed} ETH',
    'The sweep is mined but not confirmed: {reason}': 'Сбор попал в блок, но не подтверждён: {reason}',
    'The sweep flushed {flushed} ETH from the deposit address but the deposits it marked there add up to {marked} ETH':
      'Сбор переслал с депозитного адреса {flushed} ETH, но отмеченные им там депозиты дают в сумме {marked} ETH',
    "The confirmed sweep's block {block} is now {now}, not {hash}: its deposits are marked swept by a transaction the chain dropped":
      'Блок {block} подтверждённого сбора теперь с хешем {now}, а не {hash}: его депозиты отмечены собранными транзакцией, которую блокчейн отбросил',
    "The confirmed sweep's block {block} is not on the chain, not {hash}: its deposits are marked swept by a transaction the chain dropped":
      'Блока {block} подтверждённого сбора нет в блокчейне (записан хеш {hash}): его депозиты отмечены собранными транзакцией, которую блокчейн отбросил',
    "The receiving address's {asset} rose {rose} in block {block} (with what it sent), less than the {swept} the token sweeps of that block moved there":
      'Баланс {asset} на адресе получения вырос в блоке {block} на {rose} (с учётом отправленного с него) — меньше, чем {swept}, которые перевели туда сборы токенов этого блока',
    'not checked: indexing is halted ({reason})': 'не проверено: индексация остановлена ({reason})',
  },
};
