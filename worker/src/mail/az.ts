import type { Factor, MailText } from './en.ts';

/** Every e-mail's text in Azerbaijani (Latin script), key for key as en.ts. */
const factorName = (f: Factor) => (f.kind === 'passkey' ? `giriş açarı (${f.name ?? 'adsız'})` : 'autentifikator tətbiqi');

export const az: MailText = {
  hello: (name) => `Salam, ${name}!`,
  transaction: (hash) => `Tranzaksiya: ${hash}`,
  yourProfile: (url) => `Profiliniz: ${url}`,
  notYou: (site) => `Bunu siz etməmisinizsə, hesabınızdan başqası istifadə edə bilər: dərhal ${site}/forgot-password ünvanında yeni parol təyin edin, sonra ${site}/profile/security səhifəsini yoxlayın.`,

  receipt: {
    subject: (ref) => `${ref} nömrəli sifariş üçün ödəniş alındı`,
    confirmed: (ref, network) => `${ref} nömrəli sifariş üçün ödənişiniz ${network} şəbəkəsində təsdiqləndi.`,
    line: (p) => `- ${p.name}: ${p.qty} × ${p.price} = ${p.sum}`,
    total: (amount) => `Cəmi: ${amount}`,
    paid: (eth) => `Ödənilib: ${eth} ETH`,
    runsUntil: (day) => `Paketləriniz ${day} tarixinədək işləyir.`,
    receiptLink: (url) => `Qəbziniz: ${url}`,
  },
  cashoutPaid: {
    subject: (amount) => `${amount} məbləğində pul çıxarışınız ödənildi`,
    sent: (p) => `${p.amount} məbləğində pul çıxarışınız ${p.network} şəbəkəsində ${p.wallet} pul kisəsinə göndərildi.`,
  },
  refundPaid: {
    subject: (eth) => `${eth} ETH geri qaytarıldı`,
    sent: (p) => {
      const what = p.what === 'overpayment' ? `${p.ref} nömrəli sifariş üzrə artıq ödənişi` : p.what === 'order-transfer' ? `${p.ref} nömrəli sifariş üçün köçürmənizi` : 'köçürmənizi';
      return `Biz ${what} geri qaytardıq: ${p.eth} ETH ${p.network} şəbəkəsində ${p.wallet} pul kisəsinə göndərildi.`;
    },
  },
  passwordReset: {
    subject: 'Yeni parol təyin edin',
    asked: 'Kimsə (ümid edirik ki, siz) hesabınız üçün yeni parol təyin etmək istədi. Parol seçmək üçün bu keçidi açın:',
    linkWorks: (until) => `Keçid bir dəfə, ${until} tarixinədək işləyir.`,
    ignore: 'Bunu siz istəməmisinizsə, bu məktuba məhəl qoymayın: parolunuz dəyişmir.',
  },
  passwordResetUsed: {
    subject: 'Parolunuz dəyişdirildi',
    changed: (at) => `Hesabınızın parolu ${at} tarixində bərpa keçidi ilə dəyişdirildi və hesabın bütün seanslarından çıxış edildi.`,
    notYou: (site) => `Bunu siz etməmisinizsə, ${site}/forgot-password ünvanında yeni keçid istəyin və dərhal bizə xəbər verin.`,
  },
  factorAdded: {
    subject: (f) => `İki mərhələli giriş: hesabınıza ${factorName(f)} əlavə edildi`,
    line: (f, at) => `${at} tarixində hesabınızın iki mərhələli girişinə ${factorName(f)} əlavə edildi.`,
  },
  factorRemoved: {
    subject: (f) => `İki mərhələli giriş: ${factorName(f)} hesabınızdan silindi`,
    line: (f, at) => `${at} tarixində ${factorName(f)} hesabınızın iki mərhələli girişindən silindi.`,
  },
  passwordChanged: {
    subject: 'Hesabınızın parolu dəyişdirildi',
    line: (at) => `Hesabınızın parolu ${at} tarixində dəyişdirildi və onun digər seanslarından çıxış edildi.`,
  },
  emailChanged: {
    subject: 'Hesabınızın e-poçt ünvanı dəyişdirildi',
    line: (to, at) => `Hesabınızın e-poçt ünvanı ${at} tarixində ${to ?? 'başqa ünvan'} olaraq dəyişdirildi: bundan sonra ora yazacağıq.`,
  },
  welcome: {
    subject: 'ETH Shop-a xoş gəlmisiniz',
    ready: (site) =>
      `Hesabınız hazırdır. ${site}/ ünvanında paket seçin və onu pul kisənizdən ETH ilə ödəyin; sonra onun gündəlik krediti balansınıza əlavə olunacaq, profiliniz də bunu göstərəcək: ${site}/profile`,
    referral: (code, percent) => `Referal kodunuz: ${code}. Bu kodla qeydiyyatdan keçən hər kəsin ödədiyi hər sifarişin ${percent}%-i aktiv balansınıza əlavə olunur.`,
    notYours: 'Bu hesabı siz açmamısınızsa, bu məktuba cavab yazaraq bizə bildirin.',
  },
  referralReward: {
    subject: (amount) => `${amount} məbləğində referal mükafatı qazandınız`,
    credited: (p) => `Referal kodunuzla qeydiyyatdan keçən biri sifariş ödədi və ${p.at} tarixində ${p.amount} (onun ${p.percent}%-i) aktiv balansınıza əlavə edildi.`,
    statement: (url) => `Balansınız və onun hesabatı: ${url}`,
  },
  cashoutRequested: {
    subject: (amount) => `${amount} məbləğində pul çıxarışı istənildi`,
    asked: (p) => `${p.at} tarixində hesabınızdan ${p.network} şəbəkəsində ${p.wallet} pul kisəsinə ${p.amount} məbləğində pul çıxarışı istənildi.`,
    within: 'Koinlər 1-24 saat ərzində pul kisəsinə göndərilir.',
  },
  cashoutNewWallet: {
    subject: (amount) => `${amount} məbləğində pul çıxarışı yeni pul kisəsinə`,
    waitsUntil: (until) => `Hesabınızdan bu pul kisəsinə indiyədək ödəniş edilməyib, ona görə pul çıxarışı ödənilməzdən əvvəl ${until} tarixinədək gözləyir.`,
    newWallet: 'Hesabınızdan bu pul kisəsinə indiyədək ödəniş edilməyib.',
    cancel:
      'Bunu siz etməmisinizsə, bu keçidi açın: o, hesabınızdan bu pul kisəsinə hələ gözləyən bütün pul çıxarışlarını ləğv edir (məbləğ aktiv balansınıza qayıdır), pul kisəsini hesabınız üçün bloklayır və hesabınızdan hər yerdə çıxış edir. Sonra yeni parol təyin edin.',
    linkWorks: (until) => `Keçid bir dəfə, ${until} tarixinədək işləyir.`,
  },
};
