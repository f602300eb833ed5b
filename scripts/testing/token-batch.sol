// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// A batch of token transfers in one transaction, from this contract's own balance (an
/// exchange's batched withdrawal): one Transfer log per recipient. Works with tokens whose
/// `transfer` returns true and with USDT's, which returns nothing.
contract TokenBatch {
    function send(address token, address[] calldata to, uint256[] calldata values) external {
        for (uint256 i = 0; i < to.length; i++) {
            (bool ok, bytes memory ret) = token.call(abi.encodeWithSelector(0xa9059cbb, to[i], values[i]));
            require(ok && (ret.length == 0 || abi.decode(ret, (bool))), "transfer failed");
        }
    }
}
