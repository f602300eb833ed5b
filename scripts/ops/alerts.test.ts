import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import { parse as parseYaml } from 'yaml';
import { parser } from '@prometheus-io/lezer-promql';
import { createApiTestKit, type ApiTestKit } from '../../api/src/testing/api-test-kit.ts';
import { REPO_ROOT } from '../lib/paths.ts';

type Rule = { alert: string; expr: string; for?: string; labels?: { severity?: string }; annotations?: { summary?: string; description?: string } };
const file = parseYaml(readFileSync(path.join(REPO_ROOT, 'scripts/ops/prometheus-alerts.yml'), 'utf8')) as { groups: { name: string; rules: Rule[] }[] };
const rules = file.groups.flatMap((g) => g.rules);

let kit: ApiTestKit;
beforeAll(async () => {
  kit = await createApiTestKit({ chain: true });
});
afterAll(async () => {
  await kit?.close();
});

describe('the Prometheus alert rules', () => {
  it('cover what operators must hear about', () => {
    expect(rules.map((r) => r.alert).sort()).toEqual(
      ['BooksDoNotReconcile', 'CashoutsWaitingOver24h', 'DepositFactoryRefused', 'DepositFactoryUnchecked', 'IndexerHalted', 'IndexerLagging', 'JobsFailing', 'ReconcilerNotRunning', 'TransfersWaitingForAnAdmin', 'WebhooksGivenUp', 'WebhooksPilingUp'].sort(),
    );
  });

  it('parse with the PromQL grammar, carry a severity and a summary, and name only metrics the api exports', async () => {
    const exported = new Set([...(await request(kit.app).get('/metrics')).text.matchAll(/^# TYPE (\w+) /gm)].map((m) => m[1]));
    for (const rule of rules) {
      const tree = parser.parse(rule.expr);
      let broken = false;
      tree.iterate({ enter: (node) => void (node.type.isError && (broken = true)) });
      expect(broken, `${rule.alert}: ${rule.expr}`).toBe(false);
      expect(['page', 'ticket'], rule.alert).toContain(rule.labels?.severity);
      expect(rule.annotations?.summary, rule.alert).toBeTruthy();
      expect(rule.annotations?.description, rule.alert).toBeTruthy();
      if (rule.for) expect(rule.for, rule.alert).toMatch(/^\d+[smh]$/);
      for (const [metric] of rule.expr.matchAll(/\bshop_\w+/g)) expect(exported, `${rule.alert}: ${metric}`).toContain(metric);
    }
  });

  it('the grammar check is real: a broken expression is caught', () => {
    let broken = false;
    parser.parse('shop_indexer_halted == == 1').iterate({ enter: (node) => void (node.type.isError && (broken = true)) });
    expect(broken).toBe(true);
  });
});
