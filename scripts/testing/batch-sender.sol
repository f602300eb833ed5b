// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// An exchange's batched withdrawal for tests: one transaction pays several addresses
/// through internal calls (what some exchanges do to save gas).
contract BatchSender {
    function send(address[] calldata to, uint256[] calldata values) external payable {
        for (uint256 i = 0; i < to.length; i++) {
            (bool ok, ) = to[i].call{value: values[i]}("");
            require(ok, "payment failed");
        }
    }
}
