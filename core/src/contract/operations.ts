import { adminOperations } from './operations-admin.ts';
import type { Operation } from './operation-parts.ts';
import { peopleOperations } from './operations-people.ts';
import { shopOperations } from './operations-shop.ts';

export { apiErrorJson, errorStatuses, pathParams, pathSchema, type Access, type HttpMethod, type Operation, type OperationAnswer } from './operation-parts.ts';

/**
 * Every operation of the api, once: what it takes (path, query, body), what it answers
 * and who may call it. The api publishes it as an OpenAPI document
 * (api/src/openapi/document.ts, GET /api/openapi.json); a test walks the app's router and
 * fails on a route missing here, and the browser journeys check each answer against its
 * schema. Not part of the contract's index: the web app does not load it.
 */

export const OPERATIONS: Operation[] = [...peopleOperations, ...shopOperations, ...adminOperations];
