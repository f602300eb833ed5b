// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// A fake token for tests: its `transfer` moves nothing and emits the same Transfer event
/// a real ERC-20 does, from another contract address. Never a delivery of a token rail.
contract LookAlikeToken {
    event Transfer(address indexed from, address indexed to, uint256 value);

    function transfer(address to, uint256 value) external returns (bool) {
        emit Transfer(msg.sender, to, value);
        return true;
    }
}
