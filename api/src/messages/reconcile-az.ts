import { blockState, type ReconcileCatalogue } from './reconcile-en.ts';

type Values = Record<string, string>;

const BALANCES: Values = { active: 'Aktiv balans', passive: 'Passiv balans' };

/** '<whose> block 5 is now 0x…' or '… is not on the chain', in Azerbaijani: 'Nəzərə alınmış köçürmənin 5 nömrəli blokunun heşi indi fərqlidir (0x…)'. */
function block(v: Values, whose: string): string {
  const state = blockState(v.state);
  return 'now' in state ? `${whose} ${v.block} nömrəli blokunun heşi indi fərqlidir (${state.now})` : `${whose} ${v.block} nömrəli bloku blokçeyndə yoxdur`;
}

/** The reconciler's findings in Azerbaijani (Latin script), key for key as reconcile-en.ts. */
export const reconcileAz: ReconcileCatalogue = {
  exact: {
    'The order is PAID but a line has no daily credit term: daily credit does not read it':
      'Sifariş ödənilib (PAID), lakin onun sətirlərindən birinin gündəlik kredit müddəti yoxdur: gündəlik kredit onu oxumur',
    'The cashout is PAID without a payout transaction the worker accepted': 'Pul çıxarışı işçi prosesin qəbul etdiyi ödəniş tranzaksiyası olmadan ödənilmiş (PAID) kimi qeyd olunub',
    'The refund is PAID without a payout transaction the worker accepted': 'Geri qaytarma işçi prosesin qəbul etdiyi ödəniş tranzaksiyası olmadan ödənilmiş (PAID) kimi qeyd olunub',
    'A counted transfer has no order, block or value': 'Nəzərə alınmış köçürmənin sifarişi, bloku və ya dəyəri yoxdur',
    'The sweep is CONFIRMED without the amount it swept': 'Toplanış təsdiqlənib (CONFIRMED), lakin onun topladığı məbləğ qeydə alınmayıb',
    'The deposit is marked swept by a sweep that did not sweep its address': 'Depozit onun ünvanından toplamayan toplanış tərəfindən toplanmış kimi qeyd olunub',
    'A transfer to the receiving address is marked swept': 'Qəbul ünvanına köçürmə toplanmış kimi qeyd olunub',
    'not checked: chain checks left out': 'yoxlanılmayıb: blokçeyn yoxlamaları söndürülüb',
  },
  templates: {
    'The {account} balance is {balance} but its ledger sums to {ledger}': (v) => `${BALANCES[v.account ?? ''] ?? `${v.account} balansı`}: ${v.balance}, lakin jurnaldakı yazılarının cəmi: ${v.ledger}`,
    'The order records {paid} paid but its counted transfers add up to {counted}': 'Sifarişdə {paid} ödənilmiş kimi qeyd olunub, lakin onun nəzərə alınmış köçürmələrinin cəmi {counted} təşkil edir',
    'The order is PAID but its counted transfers ({counted}) do not cover its total ({total})': 'Sifariş ödənilib (PAID), lakin onun nəzərə alınmış köçürmələri ({counted}) sifarişin məbləğini ({total}) örtmür',
    "The order's counted transfers ({counted}) cover its total but it is {status}": 'Sifarişin nəzərə alınmış köçürmələri ({counted}) onun məbləğini örtür, lakin statusu: {status}',
    "The order's referral reward was posted {rewards} time(s) and reversed {reversals} time(s) while it is {status}":
      'Sifarişin referal mükafatı {rewards} dəfə yazılıb və {reversals} dəfə geri alınıb, halbuki sifarişin statusu: {status}',
    'The order records {settled} wei of overpayment settled but its refunds and credits add up to {parts} wei':
      'Sifarişdə {settled} wei artıq ödənişin həll edildiyi qeyd olunub, lakin onun geri qaytarmaları ilə balansa əlavələrinin cəmi {parts} wei təşkil edir',
    'The order records {settled} of overpayment settled but its refunds and credits add up to {parts}':
      'Sifarişdə {settled} artıq ödənişin həll edildiyi qeyd olunub, lakin onun geri qaytarmaları ilə balansa əlavələrinin cəmi {parts} təşkil edir',
    "The order's overpayment credits add up to {credited}, more than the {settled} of overpayment they settled":
      'Sifarişin artıq ödənişdən balansa əlavələrinin cəmi {credited} təşkil edir, bu isə onların həll etdiyi artıq ödənişdən ({settled}) çoxdur',
    'The order settled {settled} of overpayment but was overpaid {overpaid} (a payment left the chain after it was refunded or credited)':
      'Sifarişdə {settled} artıq ödəniş həll edilib, lakin artıq ödəniş {overpaid} olub (ödəniş geri qaytarıldıqdan və ya balansa əlavə edildikdən sonra blokçeyndən çıxıb)',
    'The order holds none of the package but its movements took {took}': 'Sifariş paketdən heç nə saxlamır, lakin ehtiyat hərəkətləri onun üçün {took} ədəd götürüb',
    'The order holds {qty} of the package but its movements took {took}': 'Sifariş paketdən {qty} ədəd saxlayır, lakin ehtiyat hərəkətləri onun üçün {took} ədəd götürüb',
    'The cashout of {amount} ({status}) has ledger entries summing to {ledger}': '{amount} məbləğində pul çıxarışının ({status}) jurnal yazılarının cəmi {ledger} təşkil edir',
    "A refund of {amount} ({asset}'s smallest units) does not match its transfer ({status}, {paid})": (v) =>
      `${v.amount} məbləğində geri qaytarma (${v.asset} aktivinin ən kiçik vahidlərində) öz köçürməsinə uyğun gəlmir (${v.status === 'missing' ? 'köçürmə yoxdur' : v.status}, ${v.paid})`,
    'The package has {stock} in stock but its movements add up to {logged}': 'Paketin ehtiyatında {stock} ədəd var, lakin onun ehtiyat hərəkətlərinin cəmi {logged} təşkil edir',
    "A counted transfer's block {block} is {state}, not {hash}": (v) =>
      `${block(v, 'Nəzərə alınmış köçürmənin')}${'now' in blockState(v.state) ? `, qeydə alınmış heş isə ${v.hash}` : ` (qeydə alınmış heş: ${v.hash})`}`,
    "A verified payout's block {block} is {state}: the cashout is PAID with nothing sent": (v) =>
      `${block(v, 'Yoxlanılmış ödənişin')}: pul çıxarışı heç nə göndərilmədən ödənilmiş (PAID) kimi qeyd olunub`,
    "A verified payout's block {block} is {state}: the refund is PAID with nothing sent": (v) =>
      `${block(v, 'Yoxlanılmış ödənişin')}: geri qaytarma heç nə göndərilmədən ödənilmiş (PAID) kimi qeyd olunub`,
    "A refunded transfer's block {block} is {state}: its refund gives back ETH that did not arrive": (v) =>
      `${block(v, 'Geri qaytarılmış köçürmənin')}: onun geri qaytarılması gəlib çatmamış ETH-ni qaytarır`,
    'A transfer with {confirmations} confirmations has been waiting since {since} without being settled': '{confirmations} təsdiqi olan köçürmə {since} vaxtından bəri gözləyir və hələ də həll edilməyib',
    "Block {block}'s unexplained inflow may be the transfer later found through a contract in it: settle one of them, not both":
      '{block} blokundakı izahsız daxilolma sonradan həmin blokda müqavilə vasitəsilə tapılan köçürmə ola bilər: ikisini yox, onlardan birini həll edin',
    'One transaction was accepted for {count} payouts': 'Bir tranzaksiya {count} ödəniş üçün qəbul edilib',
    'Tag {tag} is held by {count} orders': '{tag} teqini {count} sifariş saxlayır',
    'Audit entry {seq}, the last one the previous report saw, is gone': '{seq} nömrəli audit yazısı, əvvəlki hesabatın gördüyü sonuncu yazı, yoxa çıxıb',
    'Audit entry {seq}, the last one the previous report saw, was changed': '{seq} nömrəli audit yazısı, əvvəlki hesabatın gördüyü sonuncu yazı, dəyişdirilib',
    'Audit entry {seq} is missing': '{seq} nömrəli audit yazısı yoxdur',
    'Audit entries {first} to {last} are missing': '{first} – {last} nömrəli audit yazıları yoxdur',
    'Audit entry {seq} does not follow the entry before it (its prevHash differs)': '{seq} nömrəli audit yazısı özündən əvvəlkinin davamı deyil (prevHash fərqlidir)',
    'Audit entry {seq} was changed after it was written (its hash differs)': '{seq} nömrəli audit yazısı yazıldıqdan sonra dəyişdirilib (heşi fərqlidir)',
    'The deposit address holds {balance} ETH after block {block} but its unswept deposits add up to {recorded} ETH: {missing} ETH recorded is not there':
      'Depozit ünvanında {block} blokundan sonra {balance} ETH var, lakin onun toplanmamış depozitlərinin cəmi {recorded} ETH təşkil edir: qeydə alınmış {missing} ETH orada yoxdur',
    'The deposit address holds {balance} ETH after block {block}, {extra} ETH more than its unswept deposits ({recorded} ETH): ETH arrived that the shop did not record':
      'Depozit ünvanında {block} blokundan sonra {balance} ETH var, bu, onun toplanmamış depozitlərindən ({recorded} ETH) {extra} ETH çoxdur: mağazanın qeydə almadığı ETH daxil olub',
    "The deposit address holds {balance} ETH after block {block} and the shop recorded nothing unswept there: ETH arrived that the indexer did not see (through a contract, after the address's watch ended)":
      'Depozit ünvanında {block} blokundan sonra {balance} ETH var, mağaza isə orada toplanmamış heç nə qeydə almayıb: indeksatorun görmədiyi ETH daxil olub (müqavilə vasitəsilə, ünvanın izlənməsi bitdikdən sonra)',
    'The deposit address holds {balance} after block {block} but its unswept {asset} deposits add up to {recorded}: {missing} recorded is not there':
      'Depozit ünvanında {block} blokundan sonra {balance} var, lakin onun toplanmamış {asset} depozitlərinin cəmi {recorded} təşkil edir: qeydə alınmış {missing} orada yoxdur',
    'The deposit address holds {balance} after block {block}, {extra} more than its unswept {asset} deposits ({recorded}): {asset2} arrived that the shop did not record':
      'Depozit ünvanında {block} blokundan sonra {balance} var, bu, onun toplanmamış {asset} depozitlərindən ({recorded}) {extra} çoxdur: mağazanın qeydə almadığı {asset2} daxil olub',
    'The token sweep is CONFIRMED without the {asset} its address moved': 'Token toplanışı təsdiqlənib (CONFIRMED), lakin onun ünvanının köçürdüyü {asset} miqdarı qeydə alınmayıb',
    'The sweep moved {moved} from the deposit address but the {asset} deposits it marked there add up to {marked}':
      'Toplanış depozit ünvanından {moved} köçürüb, lakin onun orada toplanmış kimi qeyd etdiyi {asset} depozitlərinin cəmi {marked} təşkil edir',
    'The {asset} deposit is marked swept by a sweep that did not move {asset2} from its address': '{asset} depoziti öz ünvanından {asset2} köçürməyən toplanış tərəfindən toplanmış kimi qeyd olunub',
    'The deposit is marked swept by a sweep that is {status}, not CONFIRMED': 'Depozit statusu CONFIRMED deyil, {status} olan toplanış tərəfindən toplanmış kimi qeyd olunub',
    'The sweep is CONFIRMED but {count} of its addresses have no amount flushed recorded': 'Toplanış təsdiqlənib (CONFIRMED), lakin onun {count} ünvanının göndərdiyi məbləğ qeydə alınmayıb',
    'The sweep records {recorded} ETH swept but its addresses flushed {flushed} ETH': 'Toplanışda {recorded} ETH toplandığı qeyd olunub, lakin onun ünvanları {flushed} ETH göndərib',
    'The sweep is mined but not confirmed: {reason}': 'Toplanış bloka düşüb, lakin təsdiqlənməyib: {reason}',
    'The sweep flushed {flushed} ETH from the deposit address but the deposits it marked there add up to {marked} ETH':
      'Toplanış depozit ünvanından {flushed} ETH göndərib, lakin onun orada toplanmış kimi qeyd etdiyi depozitlərin cəmi {marked} ETH təşkil edir',
    "The confirmed sweep's block {block} is now {now}, not {hash}: its deposits are marked swept by a transaction the chain dropped":
      'Təsdiqlənmiş toplanışın {block} nömrəli blokunun heşi indi fərqlidir ({now}), qeydə alınmış heş isə {hash}: onun depozitləri blokçeynin atdığı tranzaksiya ilə toplanmış kimi qeyd olunub',
    "The confirmed sweep's block {block} is not on the chain, not {hash}: its deposits are marked swept by a transaction the chain dropped":
      'Təsdiqlənmiş toplanışın {block} nömrəli bloku blokçeyndə yoxdur (qeydə alınmış heş: {hash}): onun depozitləri blokçeynin atdığı tranzaksiya ilə toplanmış kimi qeyd olunub',
    "The receiving address's {asset} rose {rose} in block {block} (with what it sent), less than the {swept} the token sweeps of that block moved there":
      'Qəbul ünvanının {asset} balansı {block} blokunda {rose} artıb (ondan göndərilənlər də nəzərə alınmaqla), bu, həmin blokun token toplanışlarının ora köçürdüyü {swept} məbləğindən azdır',
    'not checked: indexing is halted ({reason})': 'yoxlanılmayıb: indeksləmə dayandırılıb ({reason})',
  },
};
