// The generator's scratch space inside the database being filled: SQL helpers that turn a
// row number into the same pseudo-random values every run (so a build is reproducible and
// one table can name another's rows without looking them up), and the curves the shop's
// two years follow. Dropped once the data is in: the schema the migrations made is all
// that stays.
import { REFERRER_N, type Sizes } from './shape.ts';

export const SCRATCH_SCHEMA = 'two_year_scratch';

export const DAY = 86_400;
/** The block at the build time; earlier times get earlier blocks, 12 s apart. */
export const HEAD_BLOCK = 21_000_000;

/** Epoch seconds the two years are laid out around. */
export type Timeline = {
  now: number;
  /** The shop opened two years before `now`. */
  opened: number;
  /** Orders start ten days after it opened; a tenth of the users signed up before. */
  ordersFrom: number;
};

export function timelineAt(now: Date): Timeline {
  const seconds = Math.floor(now.getTime() / 1000);
  return { now: seconds, opened: seconds - 730 * DAY, ordersFrom: seconds - 720 * DAY };
}

/** Users who signed up in the first ten days, before the first order. */
export function earlyUsers(sizes: Sizes): number {
  return Math.max(REFERRER_N, Math.floor(sizes.users / 10));
}

/**
 * SQL that creates the scratch schema and its functions. Every function is a single SQL
 * expression declared IMMUTABLE, so the planner inlines it into the INSERT ... SELECT that
 * calls it (a call per row would cost more than the row).
 */
export function scratchSql(sizes: Sizes, t: Timeline): string {
  const U = sizes.users;
  const U10 = earlyUsers(sizes);
  const P = sizes.packages;
  const R = sizes.referrals;
  const span = t.now - t.ordersFrom;
  return `
DROP SCHEMA IF EXISTS ${SCRATCH_SCHEMA} CASCADE;
CREATE SCHEMA ${SCRATCH_SCHEMA};
SET search_path = ${SCRATCH_SCHEMA}, public;

-- Uniform in [0, 1): 32 bits of a seeded hash of the row number.
CREATE FUNCTION rnd(n bigint, salt int) RETURNS float8 LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $f$ SELECT (hashint8extended(n, salt) & 4294967295)::float8 / 4294967296 $f$;

-- A version-4-shaped UUID of (kind, n): the same row gets the same id in every table that names it.
CREATE FUNCTION uid(kind text, n bigint) RETURNS uuid LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $f$ SELECT overlay(overlay(md5(kind || ':' || n::text) placing '4' from 13) placing '8' from 17)::uuid $f$;

-- A 32-byte hash as the chain writes them (transactions, blocks), lower case.
CREATE FUNCTION hash66(kind text, n bigint) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $f$ SELECT '0x' || md5(kind || ':' || n::text) || md5(n::text || ':' || kind) $f$;

-- A 20-byte address, lower case (no checksum to get wrong).
CREATE FUNCTION addr(kind text, n bigint) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $f$ SELECT '0x' || md5(kind || '@' || n::text) || substr(md5(n::text || '@' || kind), 1, 8) $f$;

CREATE FUNCTION ts(e float8) RETURNS timestamptz LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $f$ SELECT to_timestamp(e) $f$;

CREATE FUNCTION block_at(e float8) RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $f$ SELECT ${HEAD_BLOCK} - floor((${t.now} - e) / 12)::bigint $f$;

-- The ETH price over the two years: a slow cycle and a faster ripple, 1,450 to 3,750 USD.
CREATE FUNCTION eth_usd(e float8) RETURNS numeric LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $f$ SELECT round((2600 + 900 * sin(2 * pi() * e / ${211 * DAY}) + 250 * sin(2 * pi() * e / ${17 * DAY}))::numeric, 2) $f$;

-- What a quote asks for usd at eth: rounded up to a micro-ETH (core/src/payments/amounts.ts).
CREATE FUNCTION wei_for(usd numeric, eth numeric) RETURNS numeric LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $f$ SELECT ceil(usd * 1000000 / eth) * 1000000000000 $f$;

-- Users: a tenth in the first ten days, then growing with the square of time; user n signed up
-- before any order that picks it (users_by).
CREATE FUNCTION user_created(n bigint) RETURNS float8 LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $f$ SELECT CASE WHEN n <= ${U10} THEN ${t.opened} + n::float8 / ${U10} * ${10 * DAY}
                   ELSE ${t.ordersFrom} + ${span} * sqrt((n - ${U10})::float8 / ${Math.max(1, U - U10)}) END $f$;

CREATE FUNCTION users_by(e float8) RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $f$ SELECT least(${U}, ${U10} + floor(${U - U10} * power(greatest(0, (e - ${t.ordersFrom}) / ${span}), 2))::bigint) $f$;

-- The known referrer brought in exactly ${R} users spread evenly over the user numbers; about a
-- third of the others came through some earlier regular user's link.
CREATE FUNCTION referrer_of(n bigint) RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $f$ SELECT CASE WHEN n <= ${REFERRER_N} THEN NULL
                   WHEN (n - ${REFERRER_N}) * ${R} / ${U - REFERRER_N} > (n - ${REFERRER_N + 1}) * ${R} / ${U - REFERRER_N} THEN ${REFERRER_N}
                   WHEN n > ${REFERRER_N + 1} AND rnd(n, 41) < 0.35 THEN ${REFERRER_N + 1} + floor(rnd(n, 42) * (n - ${REFERRER_N + 1}))::bigint
              END $f$;

-- Order lines: 1 (80%), 2 or 3 packages, each package once; popular packages are the low numbers.
CREATE FUNCTION item_k(n bigint) RETURNS int LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $f$ SELECT CASE WHEN rnd(n, 30) < 0.8 THEN 1 WHEN rnd(n, 30) < 0.95 THEN 2 ELSE 3 END $f$;

CREATE FUNCTION item_p(n bigint, j int) RETURNS int LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $f$ SELECT 1 + ((floor(${P} * power(rnd(n, 31), 2))::int + (j - 1) * (1 + floor(rnd(n, 32) * ${Math.floor((P - 1) / 2)})::int)) % ${P}) $f$;

CREATE FUNCTION item_q(n bigint, j int) RETURNS int LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $f$ SELECT CASE WHEN rnd(n * 4 + j, 33) < 0.75 THEN 1 WHEN rnd(n * 4 + j, 33) < 0.92 THEN 2 ELSE 3 + floor(rnd(n * 4 + j, 34) * 3)::int END $f$;
`;
}
