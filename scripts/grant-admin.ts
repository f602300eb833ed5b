import { createDb, getConfig, grantAdminFromShell, UserError } from '@shop/core';

/**
 * `npm run admin:grant -- <e-mail>`: makes a registered user an admin of the shop at
 * DATABASE_URL. An admin's grant in the console waits for a second admin (Admin >
 * Approvals); this is how an operator with the database gives a shop its second admin.
 */
const email = process.argv[2];
if (!email) {
  console.error('usage: npm run admin:grant -- <e-mail>');
  process.exit(2);
}
const config = getConfig();
const db = createDb({ url: config.databaseUrl, poolSize: 1 });
try {
  const { already } = await grantAdminFromShell(db, email);
  console.log(already ? `${email} is an admin already.` : `${email} is an admin now (audited).`);
} catch (err) {
  if (!(err instanceof UserError)) throw err;
  console.error(err.message);
  process.exitCode = 1;
} finally {
  await db.$disconnect();
}
