/**
 * How a chain read failed, in one place. The node's own failures (unreachable, timed out,
 * overloaded, an answer that is not what the method returns) are retryable: the job or
 * request is tried again, perhaps on another replica. A node that does not offer a method
 * or no longer keeps a block's state will not change its mind: those are not retryable,
 * and the caller takes another route (another tracing method, the block's traces instead
 * of its balance) or says what the node lacks.
 */

/** A node's answer that does not have the shape its method returns (checked in rpc.ts). */
export class InvalidRpcAnswer extends Error {
  override readonly name = 'InvalidRpcAnswer';
  constructor(
    readonly method: string,
    detail: string,
  ) {
    super(`The node's answer to ${method} is not valid: ${detail}`);
  }
}

/** True when asking again (later, or another replica) may succeed. */
export function isRetryable(err: unknown): boolean {
  if (isStateUnavailable(err) || isMethodUnsupported(err)) return false;
  return err instanceof InvalidRpcAnswer || isNodeFailure(err);
}

function errorText(err: unknown): string {
  const e = err as { code?: unknown; message?: string; details?: string; cause?: { code?: unknown; message?: string } };
  return `${e?.code ?? ''} ${e?.cause?.code ?? ''} ${e?.message ?? ''} ${e?.details ?? ''} ${e?.cause?.message ?? ''}`;
}

/**
 * True for the errors of a node that does not offer a method (so the next kind is
 * tried), and only for those: a node that offers it but lacks one block's state says so
 * differently (isStateUnavailable), and must not switch tracing off for good.
 */
export function isMethodUnsupported(err: unknown): boolean {
  if (isStateUnavailable(err)) return false;
  const text = errorText(err);
  return /(^|\s)-32601(\s|$)|(^|\s)-32004(\s|$)|method not found|unknown method|method .*(does not exist|is not available|not supported|unsupported)|namespace .*(disabled|not enabled)/i.test(text);
}

/**
 * True for a node's answer that it no longer keeps the state of that block (a pruned node;
 * anvil restarted from its saved state, which knows the blocks but not their older states:
 * 'block height is 8 but requested was 6').
 */
export function isStateUnavailable(err: unknown): boolean {
  return /missing trie node|historical state|state (is )?(not available|unavailable)|state .*pruned|pruned|required .*state|state not found|header not found for state|BlockOutOfRangeError/i.test(errorText(err));
}

/** viem's errors for a node that did not answer or answered with a failure of its own. */
const NODE_ERROR_NAMES = new Set([
  'HttpRequestError',
  'TimeoutError',
  'SocketClosedError',
  'WebSocketRequestError',
  'RpcRequestError',
  'InternalRpcError',
  'LimitExceededRpcError',
  'ResourceUnavailableRpcError',
  'ResourceNotFoundRpcError',
  'MethodNotFoundRpcError',
  'MethodNotSupportedRpcError',
  'UnknownRpcError',
  'InvalidRpcAnswer',
]);

/**
 * True when a chain read failed because of the node (unreachable, timed out, refused the
 * method, lacks the state), not because of what was asked: the api answers such a
 * failure with 503 and a request to try again.
 */
export function isNodeFailure(err: unknown): boolean {
  let failure = false;
  for (let e = err as { name?: unknown; message?: unknown; details?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 10; e = e.cause as typeof e, depth++) {
    // A call that reverted is the contract's answer, not the node failing.
    if (typeof e.name === 'string' && /Revert/.test(e.name)) return false;
    if (/execution reverted/i.test(`${String(e.message ?? '')} ${String(e.details ?? '')}`)) return false;
    if (typeof e.name === 'string' && NODE_ERROR_NAMES.has(e.name)) failure = true;
  }
  return failure;
}
